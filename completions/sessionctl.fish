# Print an optspec for argparse to handle cmd's options that are independent of any subcommand.
function __fish_sessionctl_global_optspecs
    string join \n root= json q/quiet v/verbose offline log= color= no-color via= daemon-url= timeout= h/help V/version
end

function __fish_sessionctl_needs_command
    # Figure out if the current invocation already has a command.
    set -l cmd (commandline -opc)
    set -e cmd[1]
    argparse -s (__fish_sessionctl_global_optspecs) -- $cmd 2>/dev/null
    or return
    if set -q argv[1]
        # Also print the command, so this can be used to figure out what it is.
        echo $argv[1]
        return 1
    end
    return 0
end

function __fish_sessionctl_using_subcommand
    set -l cmd (__fish_sessionctl_needs_command)
    test -z "$cmd"
    and return 1
    contains -- $cmd[1] $argv
end

complete -c sessionctl -n "__fish_sessionctl_needs_command" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -s V -l version -d 'Print version'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "sessions" -d 'Work with the set of sessions under the root'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "show" -d 'Show every tier of one session side by side'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "view" -d 'A full-screen view: sessions, their summary, compact and reset tabs, undo, Trash, errors'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "reset" -d 'Clear a session\'s conversation (history, ToriiDB keys, archive rows)'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "compact" -d 'Bring sessions back under their model\'s token budget, losing nothing'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "summarize" -d 'Merge new records into each session\'s rolling summary (summary.json)'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "search" -d 'Search conversations: by meaning (ToriiDB vectors) or by words (archive + recent)'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "errors" -d 'Cross-session error memory (ToriiDB db 2): list, show, edit, prune, search'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "check" -d 'Verify every tier; --repair fixes what is safe to fix'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "limits" -d 'Context windows and compaction budgets of the models sessions use'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "remove" -d 'Remove sessions entirely: folder, ToriiDB keys and archive rows'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "rm" -d 'Remove sessions entirely: folder, ToriiDB keys and archive rows'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "log" -d 'The operation log: every write, newest first'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "undo" -d 'Reverse the latest operation (or the one named), from what it kept'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "trash" -d 'sessions/.Trash: list, restore or prune what reset and remove took away'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "export" -d 'Write sessions as bundles (every tier, with checksums) for another root or machine'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "import" -d 'Bring a bundle into this root (refuses an existing session; checks every checksum)'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "completions" -d 'Print the shell completion script (session ids, error ids and agent names included)'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "man" -d 'Print the man page, or write every page into DIR'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "config" -d 'The config file\'s settings: see `config show --help`'
complete -c sessionctl -n "__fish_sessionctl_needs_command" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -f -a "list" -d 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -f -a "ls" -d 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and not __fish_seen_subcommand_from list ls help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l sort -d 'Order by this column (ties by session id)' -r -f -a "session\t''
records\t''
tokens\t''
size\t''
last\t'Last activity'
summary\t'Age of the rolling summary'
keys\t'ToriiDB keys'
archived\t''
used\t'Share of the model\'s budget history.json uses'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l limit -d 'At most this many rows (after sorting)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l reverse -d 'Largest, newest or last first'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l sort -d 'Order by this column (ties by session id)' -r -f -a "session\t''
records\t''
tokens\t''
size\t''
last\t'Last activity'
summary\t'Age of the rolling summary'
keys\t'ToriiDB keys'
archived\t''
used\t'Share of the model\'s budget history.json uses'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l limit -d 'At most this many rows (after sorting)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l reverse -d 'Largest, newest or last first'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from ls" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "list" -d 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand sessions; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l summary -d 'Print the rolling summary (key decisions, discussions, the current one) and how many records it lags behind the conversation'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l match -d 'Open on the sessions whose id matches this glob or substring (the filter `/` edits)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l summarizer -d 'Which summarizer writes summaries and folds tool steps' -r -f -a "offline\t'Deterministic and extractive; no network, no key'
openai\t'Any OpenAI-compatible /v1/chat/completions server'
anthropic\t'Anthropic /v1/messages'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l llm-url -l base-url -d 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l llm-model -d 'Model name to ask for' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l llm-timeout -d 'Seconds to wait for one answer' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l force -d 'Write even though Agenvoy seems to be running (with `--via auto`: write the files instead of going through its daemon)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand view" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l mode -d 'summary: keep the rolling summary; all: delete it too' -r -f -a "summary\t'Clear the conversation, keep the rolling summary (summary.json + cursor)'
all\t'Clear the conversation and the rolling summary'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l summarizer -d 'Which summarizer writes summaries and folds tool steps' -r -f -a "offline\t'Deterministic and extractive; no network, no key'
openai\t'Any OpenAI-compatible /v1/chat/completions server'
anthropic\t'Anthropic /v1/messages'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l llm-url -l base-url -d 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l llm-model -d 'Model name to ask for' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l llm-timeout -d 'Seconds to wait for one answer' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l all -d 'Every session (narrow it with the filters)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l purge -d 'Delete instead of moving to sessions/.Trash'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand reset" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l model -d 'The model whose window sets the budget [default: the session\'s config.json model]' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l budget -d 'Token budget, instead of 80% of the model\'s window' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l max-bytes -d 'Byte cap of history.json (Agenvoy\'s max_history_bytes)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l keep-last -d 'Always keep this many newest exchanges of history.json' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l summarizer -d 'Which summarizer writes summaries and folds tool steps' -r -f -a "offline\t'Deterministic and extractive; no network, no key'
openai\t'Any OpenAI-compatible /v1/chat/completions server'
anthropic\t'Anthropic /v1/messages'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l llm-url -l base-url -d 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l llm-model -d 'Model name to ask for' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l llm-timeout -d 'Seconds to wait for one answer' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l for-model -d 'The session moves to this model: rewrite its tool histories as plain text the new model can read, budget for that model, and set it as config.json\'s model when the session is rewritten' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l all -d 'Every session (narrow it with the filters)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l fold -d 'Merge the records that leave history.json into summary.json first, so the model keeps their gist (the summary is otherwise untouched)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l force -d 'Write even though Agenvoy seems to be running'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand compact" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l summarizer -d 'Which summarizer writes summaries and folds tool steps' -r -f -a "offline\t'Deterministic and extractive; no network, no key'
openai\t'Any OpenAI-compatible /v1/chat/completions server'
anthropic\t'Anthropic /v1/messages'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l llm-url -l base-url -d 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l llm-model -d 'Model name to ask for' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l llm-timeout -d 'Seconds to wait for one answer' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l model -d 'Model name to ask for, as --llm-model (\'summarize --summarizer openai --base-url URL --model NAME\')' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l chunk-chars -d 'Characters per chunk sent to the summarizer' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l keep-failed -d 'Save a reply that failed validation twice to this file' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l all -d 'Every session (narrow it with the filters)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l rebuild -d 'Start from an empty summary and merge the whole archive (needs --yes without a terminal; the old summary goes to sessions/.Trash)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -s n -l dry-run -d 'Print what would be merged, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -s y -l yes -d 'Do not ask for confirmation of --rebuild'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l force -d 'Write even though Agenvoy seems to be running'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand summarize" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l by -d 'How to search [default: semantic where a query vector can be had (embedding cache or SESSIONCTL_EMBED_BASE_URL), else keyword]' -r -f -a "semantic\t''
keyword\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l role -d 'Only messages of this role' -r -f -a "user\t''
assistant\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l since -d 'Only messages newer than this: an age (7d, 12h) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l limit -d 'At most this many results' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l embed-url -d 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l embed-model -d 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l all -d 'Every session (the default when none is named)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l fts -d 'Pass the query to FTS5 as it is (keyword search)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -f -a "list" -d 'List error-memory records (expired ones only with --expired)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -f -a "show" -d 'Show one record: every field, TTL left, whether it has a vector'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -f -a "edit" -d 'Rewrite a record\'s action (and optionally cause/keywords), keeping its TTL'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -f -a "prune" -d 'Remove expired records and records whose outcome is not `resolved`'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -f -a "search" -d 'What an agent would get as related_errors for a query'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and not __fish_seen_subcommand_from list show edit prune search help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l tool -d 'Only this tool' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l keyword -d 'Only records with a keyword containing this' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l outcome -d 'Only this outcome (resolved, failed, …)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l sort -r -f -a "age\t'Newest first (Agenvoy\'s order)'
tool\t'By tool name, then newest first'
expires\t'Soonest to expire first'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l limit -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l expired -d 'Include expired records'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l action -d 'The new action; - reads it from stdin; without it, $EDITOR on a terminal' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l cause -d 'The new cause (what was behind the failure)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l keywords -d 'Replace the keywords (comma-separated)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l embed-url -d 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l embed-model -d 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l touch -d 'Restart the 90-day TTL instead of keeping it (also revives an expired record)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from edit" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l expired -d 'Remove expired records (default: both kinds)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l not-resolved -d 'Remove records whose outcome is not `resolved` (default: both kinds)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l by -d 'How to search: keyword (Agenvoy\'s Contains rule) or semantic (vectors)' -r -f -a "semantic\t''
keyword\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l tool -d 'Only records of this tool (Agenvoy\'s `<tool>:*` pattern)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l limit -d 'At most this many records (an agent gets 3)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l embed-url -d 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l embed-model -d 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l touch-hits -d 'Refresh the 90-day TTL of what is returned, as an agent\'s lookup does (a write: needs --yes without a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -s y -l yes -d 'With --touch-hits: do not ask'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l force -d 'Write even though Agenvoy seems to be running (with --touch-hits)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from search" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from help" -f -a "list" -d 'List error-memory records (expired ones only with --expired)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show one record: every field, TTL left, whether it has a vector'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from help" -f -a "edit" -d 'Rewrite a record\'s action (and optionally cause/keywords), keeping its TTL'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Remove expired records and records whose outcome is not `resolved`'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from help" -f -a "search" -d 'What an agent would get as related_errors for a query'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand errors; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l all -d 'Every session and the shared stores (the default when none is named)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l repair -d 'Fix what is safe to fix (needs --yes without a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -s n -l dry-run -d 'With --repair: say what would be repaired, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -s y -l yes -d 'With --repair: do not ask'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l force -d 'Repair even though Agenvoy seems to be running'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand check" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -f -a "refresh" -d 'Fetch a context-window table and merge it into the cache'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -f -a "show" -d 'Show window, source and budget for agents (default: those the sessions use)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -f -a "learn" -d 'Learn a model\'s real limit from a provider\'s context-overflow error'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -f -a "forget" -d 'Forget a learned limit (the table\'s window applies again)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and not __fish_seen_subcommand_from refresh show learn forget help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l source -d 'Where to fetch from' -r -f -a "agenvoy\t'Agenvoy\'s own table: {vendor:{model:{in,out}}}'
litellm\t'LiteLLM\'s model_prices_and_context_window.json'
models.dev\t'models.dev api.json'
openrouter\t'OpenRouter /api/v1/models'
copilot\t'GitHub Copilot /models (needs a token, see --token-env)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l url -d 'Fetch from this URL instead of the source\'s usual one' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l token-env -d 'Environment variable holding the bearer token (Copilot)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l timeout -d 'Give up after this many seconds' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -s n -l dry-run -d 'Fetch and show what would change, write nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -s y -l yes -d 'Apply smaller windows without asking (without a terminal and without --yes they are kept at their old, larger values)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from refresh" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l from-error -d 'The provider\'s error text, or - to read it from stdin' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l input-tokens -d 'Tokens the failed request held, for errors that state no numbers' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from learn" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from forget" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from help" -f -a "refresh" -d 'Fetch a context-window table and merge it into the cache'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from help" -f -a "show" -d 'Show window, source and budget for agents (default: those the sessions use)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from help" -f -a "learn" -d 'Learn a model\'s real limit from a provider\'s context-overflow error'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from help" -f -a "forget" -d 'Forget a learned limit (the table\'s window applies again)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand limits; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l all -d 'Every session (narrow it with the filters)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l purge -d 'Delete instead of moving to sessions/.Trash'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand remove" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l all -d 'Every session (narrow it with the filters)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l purge -d 'Delete instead of moving to sessions/.Trash'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand rm" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l session -d 'Only operations that changed this session' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l limit -d 'Show at most N operations (newest first)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand log" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand undo" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -f -a "list" -d 'The entries of sessions/.Trash: session, time, operation and size'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -f -a "restore" -d 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -f -a "prune" -d 'Delete old trash entries for good (cannot be undone)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and not __fish_seen_subcommand_from list restore prune help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from list" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l as -d 'Restore under this session id instead' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from restore" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l older-than -d 'Delete entries older than this: 30d, 2w, 6mo' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l keep-last -d 'Keep the newest N entries of each session, however old' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from prune" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "list" -d 'The entries of sessions/.Trash: session, time, operation and size'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "restore" -d 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "prune" -d 'Delete old trash entries for good (cannot be undone)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand trash; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l idle-for -d 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l idle-since -d 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l older-than -d 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l match -d 'Only session ids matching this glob (`*`, `?`, `[a-z]`)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l shard -d 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -s o -l output -d 'The folder to write `<DIR>/<SESSION>/` bundles into (created if missing), or a FILE.tar to pack them into (never overwritten)' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l all -d 'Every session (narrow it with the filters)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l with-errors -d 'Also export the cross-session error memory (ToriiDB db 2), as `<DIR>/.error-memory/`; `import` merges it (records the root lacks)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -s n -l dry-run -d 'Print what would be exported, write nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand export" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l as -d 'Import under this session id instead' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -s n -l dry-run -d 'Print exactly what would change, change nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -s y -l yes -d 'Do not ask for confirmation (required when stdin is not a terminal)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l force -d 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand import" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l static -d 'The static script (as in completions/): commands and options only, without asking sessionctl for session ids, error ids and agent names'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand completions" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand man" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -f -a "show" -d 'Every setting in effect and where it came from: flag, env, file or default'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and not __fish_seen_subcommand_from show help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l root -d 'The Agenvoy data root [default: ~/.config/agenvoy]' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l log -d 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs' -r -F
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l color -d 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never' -r -f -a "auto\t''
always\t''
never\t''"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l via -d 'How writes reach the stores: auto (through Agenvoy\'s daemon when it runs for this root, else the files), files, daemon' -r -f -a "auto\t'The daemon when this root\'s daemon is alive and answering, else the files'
files\t'The files (refused with 75 while Agenvoy runs)'
daemon\t'The daemon (69 when it cannot be reached)'"
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l daemon-url -d 'Agenvoy\'s daemon (loopback only)' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l timeout -d 'Seconds to wait for one answer of the daemon' -r
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l json -d 'Print JSON for scripts instead of tables'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -s q -l quiet -d 'Print nothing but errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -s v -l verbose -d 'Say more about what is happening (on stderr)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l offline -d 'Never use the network (the window table comes from the cache or the built-in copy)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -l no-color -d 'The same as --color never'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from show" -s h -l help -d 'Print help (see more with \'--help\')'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "show" -d 'Every setting in effect and where it came from: flag, env, file or default'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand config; and __fish_seen_subcommand_from help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "sessions" -d 'Work with the set of sessions under the root'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "show" -d 'Show every tier of one session side by side'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "view" -d 'A full-screen view: sessions, their summary, compact and reset tabs, undo, Trash, errors'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "reset" -d 'Clear a session\'s conversation (history, ToriiDB keys, archive rows)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "compact" -d 'Bring sessions back under their model\'s token budget, losing nothing'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "summarize" -d 'Merge new records into each session\'s rolling summary (summary.json)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "search" -d 'Search conversations: by meaning (ToriiDB vectors) or by words (archive + recent)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "errors" -d 'Cross-session error memory (ToriiDB db 2): list, show, edit, prune, search'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "check" -d 'Verify every tier; --repair fixes what is safe to fix'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "limits" -d 'Context windows and compaction budgets of the models sessions use'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "remove" -d 'Remove sessions entirely: folder, ToriiDB keys and archive rows'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "log" -d 'The operation log: every write, newest first'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "undo" -d 'Reverse the latest operation (or the one named), from what it kept'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "trash" -d 'sessions/.Trash: list, restore or prune what reset and remove took away'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "export" -d 'Write sessions as bundles (every tier, with checksums) for another root or machine'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "import" -d 'Bring a bundle into this root (refuses an existing session; checks every checksum)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "completions" -d 'Print the shell completion script (session ids, error ids and agent names included)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "man" -d 'Print the man page, or write every page into DIR'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "config" -d 'The config file\'s settings: see `config show --help`'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and not __fish_seen_subcommand_from sessions show view reset compact summarize search errors check limits remove log undo trash export import completions man config help" -f -a "help" -d 'Print this message or the help of the given subcommand(s)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from sessions" -f -a "list" -d 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from errors" -f -a "list" -d 'List error-memory records (expired ones only with --expired)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from errors" -f -a "show" -d 'Show one record: every field, TTL left, whether it has a vector'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from errors" -f -a "edit" -d 'Rewrite a record\'s action (and optionally cause/keywords), keeping its TTL'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from errors" -f -a "prune" -d 'Remove expired records and records whose outcome is not `resolved`'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from errors" -f -a "search" -d 'What an agent would get as related_errors for a query'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from limits" -f -a "refresh" -d 'Fetch a context-window table and merge it into the cache'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from limits" -f -a "show" -d 'Show window, source and budget for agents (default: those the sessions use)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from limits" -f -a "learn" -d 'Learn a model\'s real limit from a provider\'s context-overflow error'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from limits" -f -a "forget" -d 'Forget a learned limit (the table\'s window applies again)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from trash" -f -a "list" -d 'The entries of sessions/.Trash: session, time, operation and size'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from trash" -f -a "restore" -d 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from trash" -f -a "prune" -d 'Delete old trash entries for good (cannot be undone)'
complete -c sessionctl -n "__fish_sessionctl_using_subcommand help; and __fish_seen_subcommand_from config" -f -a "show" -d 'Every setting in effect and where it came from: flag, env, file or default'
