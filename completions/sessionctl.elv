
use builtin;
use str;

set edit:completion:arg-completer[sessionctl] = {|@words|
    fn spaces {|n|
        builtin:repeat $n ' ' | str:join ''
    }
    fn cand {|text desc|
        edit:complex-candidate $text &display=$text' '(spaces (- 14 (wcswidth $text)))$desc
    }
    var command = 'sessionctl'
    for word $words[1..-1] {
        if (str:has-prefix $word '-') {
            break
        }
        set command = $command';'$word
    }
    var completions = [
        &'sessionctl'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand -V 'Print version'
            cand --version 'Print version'
            cand sessions 'Work with the set of sessions under the root'
            cand show 'Show every tier of one session side by side'
            cand reset 'Clear a session''s conversation (history, ToriiDB keys, archive rows)'
            cand compact 'Bring sessions back under their model''s token budget, losing nothing'
            cand summarize 'Merge new records into each session''s rolling summary (summary.json)'
            cand search 'Search conversations: by meaning (ToriiDB vectors) or by words (archive + recent)'
            cand errors 'Cross-session error memory (ToriiDB db 2): list, show, edit, prune, search'
            cand check 'Verify every tier; --repair fixes what is safe to fix'
            cand limits 'Context windows and compaction budgets of the models sessions use'
            cand remove 'Remove sessions entirely: folder, ToriiDB keys and archive rows'
            cand rm 'Remove sessions entirely: folder, ToriiDB keys and archive rows'
            cand log 'The operation log: every write, newest first'
            cand undo 'Reverse the latest operation (or the one named), from what it kept'
            cand trash 'sessions/.Trash: list, restore or prune what reset and remove took away'
            cand export 'Write sessions as bundles (every tier, with checksums) for another root or machine'
            cand import 'Bring a bundle into this root (refuses an existing session; checks every checksum)'
            cand completions 'Print the shell completion script (session ids, error ids and agent names included)'
            cand man 'Print the man page, or write every page into DIR'
            cand config 'The config file''s settings: see `config show --help`'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;sessions'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
            cand ls 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;sessions;list'= {
            cand --idle-for 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)'
            cand --idle-since 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)'
            cand --older-than 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)'
            cand --match 'Only session ids matching this glob (`*`, `?`, `[a-z]`)'
            cand --shard 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts'
            cand --sort 'Order by this column (ties by session id)'
            cand --limit 'At most this many rows (after sorting)'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --reverse 'Largest, newest or last first'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;sessions;ls'= {
            cand --idle-for 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)'
            cand --idle-since 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)'
            cand --older-than 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)'
            cand --match 'Only session ids matching this glob (`*`, `?`, `[a-z]`)'
            cand --shard 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts'
            cand --sort 'Order by this column (ties by session id)'
            cand --limit 'At most this many rows (after sorting)'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --reverse 'Largest, newest or last first'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;sessions;help'= {
            cand list 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;sessions;help;list'= {
        }
        &'sessionctl;sessions;help;help'= {
        }
        &'sessionctl;show'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --summary 'Print the rolling summary (key decisions, discussions, the current one) and how many records it lags behind the conversation'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;reset'= {
            cand --idle-for 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)'
            cand --idle-since 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)'
            cand --older-than 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)'
            cand --match 'Only session ids matching this glob (`*`, `?`, `[a-z]`)'
            cand --shard 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts'
            cand --mode 'summary: keep the rolling summary; all: delete it too'
            cand --summarizer 'Which summarizer writes summaries and folds tool steps'
            cand --llm-url 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)'
            cand --base-url 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)'
            cand --llm-model 'Model name to ask for'
            cand --llm-timeout 'Seconds to wait for one answer'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --all 'Every session (narrow it with the filters)'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --purge 'Delete instead of moving to sessions/.Trash'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;compact'= {
            cand --idle-for 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)'
            cand --idle-since 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)'
            cand --older-than 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)'
            cand --match 'Only session ids matching this glob (`*`, `?`, `[a-z]`)'
            cand --shard 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts'
            cand --model 'The model whose window sets the budget [default: the session''s config.json model]'
            cand --budget 'Token budget, instead of 80% of the model''s window'
            cand --max-bytes 'Byte cap of history.json (Agenvoy''s max_history_bytes)'
            cand --keep-last 'Always keep this many newest exchanges of history.json'
            cand --summarizer 'Which summarizer writes summaries and folds tool steps'
            cand --llm-url 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)'
            cand --base-url 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)'
            cand --llm-model 'Model name to ask for'
            cand --llm-timeout 'Seconds to wait for one answer'
            cand --for-model 'The session moves to this model: rewrite its tool histories as plain text the new model can read, budget for that model, and set it as config.json''s model when the session is rewritten'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --all 'Every session (narrow it with the filters)'
            cand --fold 'Merge the records that leave history.json into summary.json first, so the model keeps their gist (the summary is otherwise untouched)'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;summarize'= {
            cand --idle-for 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)'
            cand --idle-since 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)'
            cand --older-than 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)'
            cand --match 'Only session ids matching this glob (`*`, `?`, `[a-z]`)'
            cand --shard 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts'
            cand --summarizer 'Which summarizer writes summaries and folds tool steps'
            cand --llm-url 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)'
            cand --base-url 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)'
            cand --llm-model 'Model name to ask for'
            cand --llm-timeout 'Seconds to wait for one answer'
            cand --model 'Model name to ask for, as --llm-model (''summarize --summarizer openai --base-url URL --model NAME'')'
            cand --chunk-chars 'Characters per chunk sent to the summarizer'
            cand --keep-failed 'Save a reply that failed validation twice to this file'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --all 'Every session (narrow it with the filters)'
            cand --rebuild 'Start from an empty summary and merge the whole archive (needs --yes without a terminal; the old summary goes to sessions/.Trash)'
            cand -n 'Print what would be merged, change nothing'
            cand --dry-run 'Print what would be merged, change nothing'
            cand -y 'Do not ask for confirmation of --rebuild'
            cand --yes 'Do not ask for confirmation of --rebuild'
            cand --force 'Write even though Agenvoy seems to be running'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;search'= {
            cand --by 'How to search [default: semantic where a query vector can be had (embedding cache or SESSIONCTL_EMBED_BASE_URL), else keyword]'
            cand --role 'Only messages of this role'
            cand --since 'Only messages newer than this: an age (7d, 12h) or a date (2025-10-01)'
            cand --limit 'At most this many results'
            cand --embed-url 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]'
            cand --embed-model 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --all 'Every session (the default when none is named)'
            cand --fts 'Pass the query to FTS5 as it is (keyword search)'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;errors'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'List error-memory records (expired ones only with --expired)'
            cand show 'Show one record: every field, TTL left, whether it has a vector'
            cand edit 'Rewrite a record''s action (and optionally cause/keywords), keeping its TTL'
            cand prune 'Remove expired records and records whose outcome is not `resolved`'
            cand search 'What an agent would get as related_errors for a query'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;errors;list'= {
            cand --tool 'Only this tool'
            cand --keyword 'Only records with a keyword containing this'
            cand --outcome 'Only this outcome (resolved, failed, …)'
            cand --sort 'sort'
            cand --limit 'limit'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --expired 'Include expired records'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;errors;show'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;errors;edit'= {
            cand --action 'The new action; - reads it from stdin; without it, $EDITOR on a terminal'
            cand --cause 'The new cause (what was behind the failure)'
            cand --keywords 'Replace the keywords (comma-separated)'
            cand --embed-url 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]'
            cand --embed-model 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --touch 'Restart the 90-day TTL instead of keeping it (also revives an expired record)'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;errors;prune'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --expired 'Remove expired records (default: both kinds)'
            cand --not-resolved 'Remove records whose outcome is not `resolved` (default: both kinds)'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;errors;search'= {
            cand --by 'How to search: keyword (Agenvoy''s Contains rule) or semantic (vectors)'
            cand --tool 'Only records of this tool (Agenvoy''s `<tool>:*` pattern)'
            cand --limit 'At most this many records (an agent gets 3)'
            cand --embed-url 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]'
            cand --embed-model 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --touch-hits 'Refresh the 90-day TTL of what is returned, as an agent''s lookup does (a write: needs --yes without a terminal)'
            cand -y 'With --touch-hits: do not ask'
            cand --yes 'With --touch-hits: do not ask'
            cand --force 'Write even though Agenvoy seems to be running (with --touch-hits)'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;errors;help'= {
            cand list 'List error-memory records (expired ones only with --expired)'
            cand show 'Show one record: every field, TTL left, whether it has a vector'
            cand edit 'Rewrite a record''s action (and optionally cause/keywords), keeping its TTL'
            cand prune 'Remove expired records and records whose outcome is not `resolved`'
            cand search 'What an agent would get as related_errors for a query'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;errors;help;list'= {
        }
        &'sessionctl;errors;help;show'= {
        }
        &'sessionctl;errors;help;edit'= {
        }
        &'sessionctl;errors;help;prune'= {
        }
        &'sessionctl;errors;help;search'= {
        }
        &'sessionctl;errors;help;help'= {
        }
        &'sessionctl;check'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --all 'Every session and the shared stores (the default when none is named)'
            cand --repair 'Fix what is safe to fix (needs --yes without a terminal)'
            cand -n 'With --repair: say what would be repaired, change nothing'
            cand --dry-run 'With --repair: say what would be repaired, change nothing'
            cand -y 'With --repair: do not ask'
            cand --yes 'With --repair: do not ask'
            cand --force 'Repair even though Agenvoy seems to be running'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;limits'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand refresh 'Fetch a context-window table and merge it into the cache'
            cand show 'Show window, source and budget for agents (default: those the sessions use)'
            cand learn 'Learn a model''s real limit from a provider''s context-overflow error'
            cand forget 'Forget a learned limit (the table''s window applies again)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;limits;refresh'= {
            cand --source 'Where to fetch from'
            cand --url 'Fetch from this URL instead of the source''s usual one'
            cand --token-env 'Environment variable holding the bearer token (Copilot)'
            cand --timeout 'Give up after this many seconds'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand -n 'Fetch and show what would change, write nothing'
            cand --dry-run 'Fetch and show what would change, write nothing'
            cand -y 'Apply smaller windows without asking (without a terminal and without --yes they are kept at their old, larger values)'
            cand --yes 'Apply smaller windows without asking (without a terminal and without --yes they are kept at their old, larger values)'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;limits;show'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;limits;learn'= {
            cand --from-error 'The provider''s error text, or - to read it from stdin'
            cand --input-tokens 'Tokens the failed request held, for errors that state no numbers'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;limits;forget'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;limits;help'= {
            cand refresh 'Fetch a context-window table and merge it into the cache'
            cand show 'Show window, source and budget for agents (default: those the sessions use)'
            cand learn 'Learn a model''s real limit from a provider''s context-overflow error'
            cand forget 'Forget a learned limit (the table''s window applies again)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;limits;help;refresh'= {
        }
        &'sessionctl;limits;help;show'= {
        }
        &'sessionctl;limits;help;learn'= {
        }
        &'sessionctl;limits;help;forget'= {
        }
        &'sessionctl;limits;help;help'= {
        }
        &'sessionctl;remove'= {
            cand --idle-for 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)'
            cand --idle-since 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)'
            cand --older-than 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)'
            cand --match 'Only session ids matching this glob (`*`, `?`, `[a-z]`)'
            cand --shard 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --all 'Every session (narrow it with the filters)'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --purge 'Delete instead of moving to sessions/.Trash'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;rm'= {
            cand --idle-for 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)'
            cand --idle-since 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)'
            cand --older-than 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)'
            cand --match 'Only session ids matching this glob (`*`, `?`, `[a-z]`)'
            cand --shard 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --all 'Every session (narrow it with the filters)'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --purge 'Delete instead of moving to sessions/.Trash'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;log'= {
            cand --session 'Only operations that changed this session'
            cand --limit 'Show at most N operations (newest first)'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;undo'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;trash'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand list 'The entries of sessions/.Trash: session, time, operation and size'
            cand restore 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash'
            cand prune 'Delete old trash entries for good (cannot be undone)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;trash;list'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;trash;restore'= {
            cand --as 'Restore under this session id instead'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;trash;prune'= {
            cand --older-than 'Delete entries older than this: 30d, 2w, 6mo'
            cand --keep-last 'Keep the newest N entries of each session, however old'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;trash;help'= {
            cand list 'The entries of sessions/.Trash: session, time, operation and size'
            cand restore 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash'
            cand prune 'Delete old trash entries for good (cannot be undone)'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;trash;help;list'= {
        }
        &'sessionctl;trash;help;restore'= {
        }
        &'sessionctl;trash;help;prune'= {
        }
        &'sessionctl;trash;help;help'= {
        }
        &'sessionctl;export'= {
            cand -o 'The folder to write `<DIR>/<SESSION>/` bundles into (created if missing), or a FILE.tar to pack them into (never overwritten)'
            cand --output 'The folder to write `<DIR>/<SESSION>/` bundles into (created if missing), or a FILE.tar to pack them into (never overwritten)'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand -n 'Print what would be exported, write nothing'
            cand --dry-run 'Print what would be exported, write nothing'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;import'= {
            cand --as 'Import under this session id instead'
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand -n 'Print exactly what would change, change nothing'
            cand --dry-run 'Print exactly what would change, change nothing'
            cand -y 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --yes 'Do not ask for confirmation (required when stdin is not a terminal)'
            cand --force 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;completions'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --static 'The static script (as in completions/): commands and options only, without asking sessionctl for session ids, error ids and agent names'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;man'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;config'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
            cand show 'Every setting in effect and where it came from: flag, env, file or default'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;config;show'= {
            cand --root 'The Agenvoy data root [default: ~/.config/agenvoy]'
            cand --log 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs'
            cand --color 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never'
            cand --via 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon'
            cand --daemon-url 'Agenvoy''s daemon (loopback only)'
            cand --timeout 'Seconds to wait for one answer of the daemon'
            cand --json 'Print JSON for scripts instead of tables'
            cand -q 'Print nothing but errors'
            cand --quiet 'Print nothing but errors'
            cand -v 'Say more about what is happening (on stderr)'
            cand --verbose 'Say more about what is happening (on stderr)'
            cand --offline 'Never use the network (the window table comes from the cache or the built-in copy)'
            cand --no-color 'The same as --color never'
            cand -h 'Print help (see more with ''--help'')'
            cand --help 'Print help (see more with ''--help'')'
        }
        &'sessionctl;config;help'= {
            cand show 'Every setting in effect and where it came from: flag, env, file or default'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;config;help;show'= {
        }
        &'sessionctl;config;help;help'= {
        }
        &'sessionctl;help'= {
            cand sessions 'Work with the set of sessions under the root'
            cand show 'Show every tier of one session side by side'
            cand reset 'Clear a session''s conversation (history, ToriiDB keys, archive rows)'
            cand compact 'Bring sessions back under their model''s token budget, losing nothing'
            cand summarize 'Merge new records into each session''s rolling summary (summary.json)'
            cand search 'Search conversations: by meaning (ToriiDB vectors) or by words (archive + recent)'
            cand errors 'Cross-session error memory (ToriiDB db 2): list, show, edit, prune, search'
            cand check 'Verify every tier; --repair fixes what is safe to fix'
            cand limits 'Context windows and compaction budgets of the models sessions use'
            cand remove 'Remove sessions entirely: folder, ToriiDB keys and archive rows'
            cand log 'The operation log: every write, newest first'
            cand undo 'Reverse the latest operation (or the one named), from what it kept'
            cand trash 'sessions/.Trash: list, restore or prune what reset and remove took away'
            cand export 'Write sessions as bundles (every tier, with checksums) for another root or machine'
            cand import 'Bring a bundle into this root (refuses an existing session; checks every checksum)'
            cand completions 'Print the shell completion script (session ids, error ids and agent names included)'
            cand man 'Print the man page, or write every page into DIR'
            cand config 'The config file''s settings: see `config show --help`'
            cand help 'Print this message or the help of the given subcommand(s)'
        }
        &'sessionctl;help;sessions'= {
            cand list 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget'
        }
        &'sessionctl;help;sessions;list'= {
        }
        &'sessionctl;help;show'= {
        }
        &'sessionctl;help;reset'= {
        }
        &'sessionctl;help;compact'= {
        }
        &'sessionctl;help;summarize'= {
        }
        &'sessionctl;help;search'= {
        }
        &'sessionctl;help;errors'= {
            cand list 'List error-memory records (expired ones only with --expired)'
            cand show 'Show one record: every field, TTL left, whether it has a vector'
            cand edit 'Rewrite a record''s action (and optionally cause/keywords), keeping its TTL'
            cand prune 'Remove expired records and records whose outcome is not `resolved`'
            cand search 'What an agent would get as related_errors for a query'
        }
        &'sessionctl;help;errors;list'= {
        }
        &'sessionctl;help;errors;show'= {
        }
        &'sessionctl;help;errors;edit'= {
        }
        &'sessionctl;help;errors;prune'= {
        }
        &'sessionctl;help;errors;search'= {
        }
        &'sessionctl;help;check'= {
        }
        &'sessionctl;help;limits'= {
            cand refresh 'Fetch a context-window table and merge it into the cache'
            cand show 'Show window, source and budget for agents (default: those the sessions use)'
            cand learn 'Learn a model''s real limit from a provider''s context-overflow error'
            cand forget 'Forget a learned limit (the table''s window applies again)'
        }
        &'sessionctl;help;limits;refresh'= {
        }
        &'sessionctl;help;limits;show'= {
        }
        &'sessionctl;help;limits;learn'= {
        }
        &'sessionctl;help;limits;forget'= {
        }
        &'sessionctl;help;remove'= {
        }
        &'sessionctl;help;log'= {
        }
        &'sessionctl;help;undo'= {
        }
        &'sessionctl;help;trash'= {
            cand list 'The entries of sessions/.Trash: session, time, operation and size'
            cand restore 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash'
            cand prune 'Delete old trash entries for good (cannot be undone)'
        }
        &'sessionctl;help;trash;list'= {
        }
        &'sessionctl;help;trash;restore'= {
        }
        &'sessionctl;help;trash;prune'= {
        }
        &'sessionctl;help;export'= {
        }
        &'sessionctl;help;import'= {
        }
        &'sessionctl;help;completions'= {
        }
        &'sessionctl;help;man'= {
        }
        &'sessionctl;help;config'= {
            cand show 'Every setting in effect and where it came from: flag, env, file or default'
        }
        &'sessionctl;help;config;show'= {
        }
        &'sessionctl;help;help'= {
        }
    ]
    $completions[$command]
}
