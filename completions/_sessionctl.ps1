
using namespace System.Management.Automation
using namespace System.Management.Automation.Language

Register-ArgumentCompleter -Native -CommandName 'sessionctl' -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)

    $commandElements = $commandAst.CommandElements
    $command = @(
        'sessionctl'
        for ($i = 1; $i -lt $commandElements.Count; $i++) {
            $element = $commandElements[$i]
            if ($element -isnot [StringConstantExpressionAst] -or
                $element.StringConstantType -ne [StringConstantType]::BareWord -or
                $element.Value.StartsWith('-') -or
                $element.Value -eq $wordToComplete) {
                break
        }
        $element.Value
    }) -join ';'

    $completions = @(switch ($command) {
        'sessionctl' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('-V', '-V ', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('--version', '--version', [CompletionResultType]::ParameterName, 'Print version')
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'Work with the set of sessions under the root')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show every tier of one session side by side')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'A full-screen view: sessions, their summary, compact and reset tabs, undo, Trash, errors')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Clear a session''s conversation (history, ToriiDB keys, archive rows)')
            [CompletionResult]::new('compact', 'compact', [CompletionResultType]::ParameterValue, 'Bring sessions back under their model''s token budget, losing nothing')
            [CompletionResult]::new('summarize', 'summarize', [CompletionResultType]::ParameterValue, 'Merge new records into each session''s rolling summary (summary.json)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search conversations: by meaning (ToriiDB vectors) or by words (archive + recent)')
            [CompletionResult]::new('errors', 'errors', [CompletionResultType]::ParameterValue, 'Cross-session error memory (ToriiDB db 2): list, show, edit, prune, search')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Verify every tier; --repair fixes what is safe to fix')
            [CompletionResult]::new('limits', 'limits', [CompletionResultType]::ParameterValue, 'Context windows and compaction budgets of the models sessions use')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove sessions entirely: folder, ToriiDB keys and archive rows')
            [CompletionResult]::new('rm', 'rm', [CompletionResultType]::ParameterValue, 'Remove sessions entirely: folder, ToriiDB keys and archive rows')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'The operation log: every write, newest first')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Reverse the latest operation (or the one named), from what it kept')
            [CompletionResult]::new('trash', 'trash', [CompletionResultType]::ParameterValue, 'sessions/.Trash: list, restore or prune what reset and remove took away')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write sessions as bundles (every tier, with checksums) for another root or machine')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Bring a bundle into this root (refuses an existing session; checks every checksum)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script (session ids, error ids and agent names included)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, or write every page into DIR')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'The config file''s settings: see `config show --help`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;sessions' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget')
            [CompletionResult]::new('ls', 'ls', [CompletionResultType]::ParameterValue, 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;sessions;list' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Order by this column (ties by session id)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many rows (after sorting)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Largest, newest or last first')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;sessions;ls' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'Order by this column (ties by session id)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many rows (after sorting)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--reverse', '--reverse', [CompletionResultType]::ParameterName, 'Largest, newest or last first')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;sessions;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;sessions;help;list' {
            break
        }
        'sessionctl;sessions;help;help' {
            break
        }
        'sessionctl;show' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--summary', '--summary', [CompletionResultType]::ParameterName, 'Print the rolling summary (key decisions, discussions, the current one) and how many records it lags behind the conversation')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;view' {
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Open on the sessions whose id matches this glob or substring (the filter `/` edits)')
            [CompletionResult]::new('--summarizer', '--summarizer', [CompletionResultType]::ParameterName, 'Which summarizer writes summaries and folds tool steps')
            [CompletionResult]::new('--llm-url', '--llm-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--llm-model', '--llm-model', [CompletionResultType]::ParameterName, 'Model name to ask for')
            [CompletionResult]::new('--llm-timeout', '--llm-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running (with `--via auto`: write the files instead of going through its daemon)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;reset' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('--mode', '--mode', [CompletionResultType]::ParameterName, 'summary: keep the rolling summary; all: delete it too')
            [CompletionResult]::new('--summarizer', '--summarizer', [CompletionResultType]::ParameterName, 'Which summarizer writes summaries and folds tool steps')
            [CompletionResult]::new('--llm-url', '--llm-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--llm-model', '--llm-model', [CompletionResultType]::ParameterName, 'Model name to ask for')
            [CompletionResult]::new('--llm-timeout', '--llm-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session (narrow it with the filters)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--purge', '--purge', [CompletionResultType]::ParameterName, 'Delete instead of moving to sessions/.Trash')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;compact' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'The model whose window sets the budget [default: the session''s config.json model]')
            [CompletionResult]::new('--budget', '--budget', [CompletionResultType]::ParameterName, 'Token budget, instead of 80% of the model''s window')
            [CompletionResult]::new('--max-bytes', '--max-bytes', [CompletionResultType]::ParameterName, 'Byte cap of history.json (Agenvoy''s max_history_bytes)')
            [CompletionResult]::new('--keep-last', '--keep-last', [CompletionResultType]::ParameterName, 'Always keep this many newest exchanges of history.json')
            [CompletionResult]::new('--summarizer', '--summarizer', [CompletionResultType]::ParameterName, 'Which summarizer writes summaries and folds tool steps')
            [CompletionResult]::new('--llm-url', '--llm-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--llm-model', '--llm-model', [CompletionResultType]::ParameterName, 'Model name to ask for')
            [CompletionResult]::new('--llm-timeout', '--llm-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer')
            [CompletionResult]::new('--for-model', '--for-model', [CompletionResultType]::ParameterName, 'The session moves to this model: rewrite its tool histories as plain text the new model can read, budget for that model, and set it as config.json''s model when the session is rewritten')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session (narrow it with the filters)')
            [CompletionResult]::new('--fold', '--fold', [CompletionResultType]::ParameterName, 'Merge the records that leave history.json into summary.json first, so the model keeps their gist (the summary is otherwise untouched)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;summarize' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('--summarizer', '--summarizer', [CompletionResultType]::ParameterName, 'Which summarizer writes summaries and folds tool steps')
            [CompletionResult]::new('--llm-url', '--llm-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--base-url', '--base-url', [CompletionResultType]::ParameterName, 'Base URL of the model server (e.g. a local Ollama: http://127.0.0.1:11434/v1)')
            [CompletionResult]::new('--llm-model', '--llm-model', [CompletionResultType]::ParameterName, 'Model name to ask for')
            [CompletionResult]::new('--llm-timeout', '--llm-timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer')
            [CompletionResult]::new('--model', '--model', [CompletionResultType]::ParameterName, 'Model name to ask for, as --llm-model (''summarize --summarizer openai --base-url URL --model NAME'')')
            [CompletionResult]::new('--chunk-chars', '--chunk-chars', [CompletionResultType]::ParameterName, 'Characters per chunk sent to the summarizer')
            [CompletionResult]::new('--keep-failed', '--keep-failed', [CompletionResultType]::ParameterName, 'Save a reply that failed validation twice to this file')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session (narrow it with the filters)')
            [CompletionResult]::new('--rebuild', '--rebuild', [CompletionResultType]::ParameterName, 'Start from an empty summary and merge the whole archive (needs --yes without a terminal; the old summary goes to sessions/.Trash)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print what would be merged, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be merged, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation of --rebuild')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation of --rebuild')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;search' {
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'How to search [default: semantic where a query vector can be had (embedding cache or SESSIONCTL_EMBED_BASE_URL), else keyword]')
            [CompletionResult]::new('--role', '--role', [CompletionResultType]::ParameterName, 'Only messages of this role')
            [CompletionResult]::new('--since', '--since', [CompletionResultType]::ParameterName, 'Only messages newer than this: an age (7d, 12h) or a date (2025-10-01)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many results')
            [CompletionResult]::new('--embed-url', '--embed-url', [CompletionResultType]::ParameterName, 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]')
            [CompletionResult]::new('--embed-model', '--embed-model', [CompletionResultType]::ParameterName, 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session (the default when none is named)')
            [CompletionResult]::new('--fts', '--fts', [CompletionResultType]::ParameterName, 'Pass the query to FTS5 as it is (keyword search)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;errors' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List error-memory records (expired ones only with --expired)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one record: every field, TTL left, whether it has a vector')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Rewrite a record''s action (and optionally cause/keywords), keeping its TTL')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove expired records and records whose outcome is not `resolved`')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'What an agent would get as related_errors for a query')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;errors;list' {
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Only this tool')
            [CompletionResult]::new('--keyword', '--keyword', [CompletionResultType]::ParameterName, 'Only records with a keyword containing this')
            [CompletionResult]::new('--outcome', '--outcome', [CompletionResultType]::ParameterName, 'Only this outcome (resolved, failed, …)')
            [CompletionResult]::new('--sort', '--sort', [CompletionResultType]::ParameterName, 'sort')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'limit')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--expired', '--expired', [CompletionResultType]::ParameterName, 'Include expired records')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;errors;show' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;errors;edit' {
            [CompletionResult]::new('--action', '--action', [CompletionResultType]::ParameterName, 'The new action; - reads it from stdin; without it, $EDITOR on a terminal')
            [CompletionResult]::new('--cause', '--cause', [CompletionResultType]::ParameterName, 'The new cause (what was behind the failure)')
            [CompletionResult]::new('--keywords', '--keywords', [CompletionResultType]::ParameterName, 'Replace the keywords (comma-separated)')
            [CompletionResult]::new('--embed-url', '--embed-url', [CompletionResultType]::ParameterName, 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]')
            [CompletionResult]::new('--embed-model', '--embed-model', [CompletionResultType]::ParameterName, 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--touch', '--touch', [CompletionResultType]::ParameterName, 'Restart the 90-day TTL instead of keeping it (also revives an expired record)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;errors;prune' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--expired', '--expired', [CompletionResultType]::ParameterName, 'Remove expired records (default: both kinds)')
            [CompletionResult]::new('--not-resolved', '--not-resolved', [CompletionResultType]::ParameterName, 'Remove records whose outcome is not `resolved` (default: both kinds)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;errors;search' {
            [CompletionResult]::new('--by', '--by', [CompletionResultType]::ParameterName, 'How to search: keyword (Agenvoy''s Contains rule) or semantic (vectors)')
            [CompletionResult]::new('--tool', '--tool', [CompletionResultType]::ParameterName, 'Only records of this tool (Agenvoy''s `<tool>:*` pattern)')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'At most this many records (an agent gets 3)')
            [CompletionResult]::new('--embed-url', '--embed-url', [CompletionResultType]::ParameterName, 'OpenAI-compatible embeddings server [env: SESSIONCTL_EMBED_BASE_URL]')
            [CompletionResult]::new('--embed-model', '--embed-model', [CompletionResultType]::ParameterName, 'Embedding model [env: SESSIONCTL_EMBED_MODEL; default: text-embedding-3-small]')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--touch-hits', '--touch-hits', [CompletionResultType]::ParameterName, 'Refresh the 90-day TTL of what is returned, as an agent''s lookup does (a write: needs --yes without a terminal)')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'With --touch-hits: do not ask')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'With --touch-hits: do not ask')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running (with --touch-hits)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;errors;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List error-memory records (expired ones only with --expired)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one record: every field, TTL left, whether it has a vector')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Rewrite a record''s action (and optionally cause/keywords), keeping its TTL')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove expired records and records whose outcome is not `resolved`')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'What an agent would get as related_errors for a query')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;errors;help;list' {
            break
        }
        'sessionctl;errors;help;show' {
            break
        }
        'sessionctl;errors;help;edit' {
            break
        }
        'sessionctl;errors;help;prune' {
            break
        }
        'sessionctl;errors;help;search' {
            break
        }
        'sessionctl;errors;help;help' {
            break
        }
        'sessionctl;check' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session and the shared stores (the default when none is named)')
            [CompletionResult]::new('--repair', '--repair', [CompletionResultType]::ParameterName, 'Fix what is safe to fix (needs --yes without a terminal)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'With --repair: say what would be repaired, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'With --repair: say what would be repaired, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'With --repair: do not ask')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'With --repair: do not ask')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Repair even though Agenvoy seems to be running')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;limits' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Fetch a context-window table and merge it into the cache')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show window, source and budget for agents (default: those the sessions use)')
            [CompletionResult]::new('learn', 'learn', [CompletionResultType]::ParameterValue, 'Learn a model''s real limit from a provider''s context-overflow error')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget a learned limit (the table''s window applies again)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;limits;refresh' {
            [CompletionResult]::new('--source', '--source', [CompletionResultType]::ParameterName, 'Where to fetch from')
            [CompletionResult]::new('--url', '--url', [CompletionResultType]::ParameterName, 'Fetch from this URL instead of the source''s usual one')
            [CompletionResult]::new('--token-env', '--token-env', [CompletionResultType]::ParameterName, 'Environment variable holding the bearer token (Copilot)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Give up after this many seconds')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Fetch and show what would change, write nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Fetch and show what would change, write nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Apply smaller windows without asking (without a terminal and without --yes they are kept at their old, larger values)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Apply smaller windows without asking (without a terminal and without --yes they are kept at their old, larger values)')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;limits;show' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;limits;learn' {
            [CompletionResult]::new('--from-error', '--from-error', [CompletionResultType]::ParameterName, 'The provider''s error text, or - to read it from stdin')
            [CompletionResult]::new('--input-tokens', '--input-tokens', [CompletionResultType]::ParameterName, 'Tokens the failed request held, for errors that state no numbers')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;limits;forget' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;limits;help' {
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Fetch a context-window table and merge it into the cache')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show window, source and budget for agents (default: those the sessions use)')
            [CompletionResult]::new('learn', 'learn', [CompletionResultType]::ParameterValue, 'Learn a model''s real limit from a provider''s context-overflow error')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget a learned limit (the table''s window applies again)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;limits;help;refresh' {
            break
        }
        'sessionctl;limits;help;show' {
            break
        }
        'sessionctl;limits;help;learn' {
            break
        }
        'sessionctl;limits;help;forget' {
            break
        }
        'sessionctl;limits;help;help' {
            break
        }
        'sessionctl;remove' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session (narrow it with the filters)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--purge', '--purge', [CompletionResultType]::ParameterName, 'Delete instead of moving to sessions/.Trash')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;rm' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session (narrow it with the filters)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--purge', '--purge', [CompletionResultType]::ParameterName, 'Delete instead of moving to sessions/.Trash')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;log' {
            [CompletionResult]::new('--session', '--session', [CompletionResultType]::ParameterName, 'Only operations that changed this session')
            [CompletionResult]::new('--limit', '--limit', [CompletionResultType]::ParameterName, 'Show at most N operations (newest first)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;undo' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;trash' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The entries of sessions/.Trash: session, time, operation and size')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete old trash entries for good (cannot be undone)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;trash;list' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;trash;restore' {
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Restore under this session id instead')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;trash;prune' {
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Delete entries older than this: 30d, 2w, 6mo')
            [CompletionResult]::new('--keep-last', '--keep-last', [CompletionResultType]::ParameterName, 'Keep the newest N entries of each session, however old')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;trash;help' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The entries of sessions/.Trash: session, time, operation and size')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete old trash entries for good (cannot be undone)')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;trash;help;list' {
            break
        }
        'sessionctl;trash;help;restore' {
            break
        }
        'sessionctl;trash;help;prune' {
            break
        }
        'sessionctl;trash;help;help' {
            break
        }
        'sessionctl;export' {
            [CompletionResult]::new('--idle-for', '--idle-for', [CompletionResultType]::ParameterName, 'Only sessions with no activity for at least this long: 45min, 12h, 7d, 2w, 6mo, 1y6mo (a bare `m` is refused: write `min` or `mo`)')
            [CompletionResult]::new('--idle-since', '--idle-since', [CompletionResultType]::ParameterName, 'Only sessions with no activity since this date (YYYY-MM-DD, local midnight, or RFC 3339)')
            [CompletionResult]::new('--older-than', '--older-than', [CompletionResultType]::ParameterName, 'Only sessions whose first message is older than this: an age (30d, 1y) or a date (2025-10-01)')
            [CompletionResult]::new('--match', '--match', [CompletionResultType]::ParameterName, 'Only session ids matching this glob (`*`, `?`, `[a-z]`)')
            [CompletionResult]::new('--shard', '--shard', [CompletionResultType]::ParameterName, 'Only shard K of N (1-based), a stable split of ids across cron jobs or hosts')
            [CompletionResult]::new('-o', '-o', [CompletionResultType]::ParameterName, 'The folder to write `<DIR>/<SESSION>/` bundles into (created if missing), or a FILE.tar to pack them into (never overwritten)')
            [CompletionResult]::new('--output', '--output', [CompletionResultType]::ParameterName, 'The folder to write `<DIR>/<SESSION>/` bundles into (created if missing), or a FILE.tar to pack them into (never overwritten)')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--all', '--all', [CompletionResultType]::ParameterName, 'Every session (narrow it with the filters)')
            [CompletionResult]::new('--with-errors', '--with-errors', [CompletionResultType]::ParameterName, 'Also export the cross-session error memory (ToriiDB db 2), as `<DIR>/.error-memory/`; `import` merges it (records the root lacks)')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print what would be exported, write nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print what would be exported, write nothing')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;import' {
            [CompletionResult]::new('--as', '--as', [CompletionResultType]::ParameterName, 'Import under this session id instead')
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('-n', '-n', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('--dry-run', '--dry-run', [CompletionResultType]::ParameterName, 'Print exactly what would change, change nothing')
            [CompletionResult]::new('-y', '-y', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--yes', '--yes', [CompletionResultType]::ParameterName, 'Do not ask for confirmation (required when stdin is not a terminal)')
            [CompletionResult]::new('--force', '--force', [CompletionResultType]::ParameterName, 'Write even though Agenvoy seems to be running, or the ToriiDB log has lines of an unknown format')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;completions' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--static', '--static', [CompletionResultType]::ParameterName, 'The static script (as in completions/): commands and options only, without asking sessionctl for session ids, error ids and agent names')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;man' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;config' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every setting in effect and where it came from: flag, env, file or default')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;config;show' {
            [CompletionResult]::new('--root', '--root', [CompletionResultType]::ParameterName, 'The Agenvoy data root [default: ~/.config/agenvoy]')
            [CompletionResult]::new('--log', '--log', [CompletionResultType]::ParameterName, 'Append one NDJSON line per run to FILE (time, command line, exit code, sessions changed and failed); its folder is created. For cron jobs')
            [CompletionResult]::new('--color', '--color', [CompletionResultType]::ParameterName, 'When to colour output: auto (a terminal, and NO_COLOR unset or empty), always, never')
            [CompletionResult]::new('--via', '--via', [CompletionResultType]::ParameterName, 'How writes reach the stores: auto (through Agenvoy''s daemon when it runs for this root, else the files), files, daemon')
            [CompletionResult]::new('--daemon-url', '--daemon-url', [CompletionResultType]::ParameterName, 'Agenvoy''s daemon (loopback only)')
            [CompletionResult]::new('--timeout', '--timeout', [CompletionResultType]::ParameterName, 'Seconds to wait for one answer of the daemon')
            [CompletionResult]::new('--json', '--json', [CompletionResultType]::ParameterName, 'Print JSON for scripts instead of tables')
            [CompletionResult]::new('-q', '-q', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('--quiet', '--quiet', [CompletionResultType]::ParameterName, 'Print nothing but errors')
            [CompletionResult]::new('-v', '-v', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--verbose', '--verbose', [CompletionResultType]::ParameterName, 'Say more about what is happening (on stderr)')
            [CompletionResult]::new('--offline', '--offline', [CompletionResultType]::ParameterName, 'Never use the network (the window table comes from the cache or the built-in copy)')
            [CompletionResult]::new('--no-color', '--no-color', [CompletionResultType]::ParameterName, 'The same as --color never')
            [CompletionResult]::new('-h', '-h', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            [CompletionResult]::new('--help', '--help', [CompletionResultType]::ParameterName, 'Print help (see more with ''--help'')')
            break
        }
        'sessionctl;config;help' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every setting in effect and where it came from: flag, env, file or default')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;config;help;show' {
            break
        }
        'sessionctl;config;help;help' {
            break
        }
        'sessionctl;help' {
            [CompletionResult]::new('sessions', 'sessions', [CompletionResultType]::ParameterValue, 'Work with the set of sessions under the root')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show every tier of one session side by side')
            [CompletionResult]::new('view', 'view', [CompletionResultType]::ParameterValue, 'A full-screen view: sessions, their summary, compact and reset tabs, undo, Trash, errors')
            [CompletionResult]::new('reset', 'reset', [CompletionResultType]::ParameterValue, 'Clear a session''s conversation (history, ToriiDB keys, archive rows)')
            [CompletionResult]::new('compact', 'compact', [CompletionResultType]::ParameterValue, 'Bring sessions back under their model''s token budget, losing nothing')
            [CompletionResult]::new('summarize', 'summarize', [CompletionResultType]::ParameterValue, 'Merge new records into each session''s rolling summary (summary.json)')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'Search conversations: by meaning (ToriiDB vectors) or by words (archive + recent)')
            [CompletionResult]::new('errors', 'errors', [CompletionResultType]::ParameterValue, 'Cross-session error memory (ToriiDB db 2): list, show, edit, prune, search')
            [CompletionResult]::new('check', 'check', [CompletionResultType]::ParameterValue, 'Verify every tier; --repair fixes what is safe to fix')
            [CompletionResult]::new('limits', 'limits', [CompletionResultType]::ParameterValue, 'Context windows and compaction budgets of the models sessions use')
            [CompletionResult]::new('remove', 'remove', [CompletionResultType]::ParameterValue, 'Remove sessions entirely: folder, ToriiDB keys and archive rows')
            [CompletionResult]::new('log', 'log', [CompletionResultType]::ParameterValue, 'The operation log: every write, newest first')
            [CompletionResult]::new('undo', 'undo', [CompletionResultType]::ParameterValue, 'Reverse the latest operation (or the one named), from what it kept')
            [CompletionResult]::new('trash', 'trash', [CompletionResultType]::ParameterValue, 'sessions/.Trash: list, restore or prune what reset and remove took away')
            [CompletionResult]::new('export', 'export', [CompletionResultType]::ParameterValue, 'Write sessions as bundles (every tier, with checksums) for another root or machine')
            [CompletionResult]::new('import', 'import', [CompletionResultType]::ParameterValue, 'Bring a bundle into this root (refuses an existing session; checks every checksum)')
            [CompletionResult]::new('completions', 'completions', [CompletionResultType]::ParameterValue, 'Print the shell completion script (session ids, error ids and agent names included)')
            [CompletionResult]::new('man', 'man', [CompletionResultType]::ParameterValue, 'Print the man page, or write every page into DIR')
            [CompletionResult]::new('config', 'config', [CompletionResultType]::ParameterValue, 'The config file''s settings: see `config show --help`')
            [CompletionResult]::new('help', 'help', [CompletionResultType]::ParameterValue, 'Print this message or the help of the given subcommand(s)')
            break
        }
        'sessionctl;help;sessions' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List sessions: records, tokens, size, last activity, summary age, keys, archive, model and budget')
            break
        }
        'sessionctl;help;sessions;list' {
            break
        }
        'sessionctl;help;show' {
            break
        }
        'sessionctl;help;view' {
            break
        }
        'sessionctl;help;reset' {
            break
        }
        'sessionctl;help;compact' {
            break
        }
        'sessionctl;help;summarize' {
            break
        }
        'sessionctl;help;search' {
            break
        }
        'sessionctl;help;errors' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'List error-memory records (expired ones only with --expired)')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show one record: every field, TTL left, whether it has a vector')
            [CompletionResult]::new('edit', 'edit', [CompletionResultType]::ParameterValue, 'Rewrite a record''s action (and optionally cause/keywords), keeping its TTL')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Remove expired records and records whose outcome is not `resolved`')
            [CompletionResult]::new('search', 'search', [CompletionResultType]::ParameterValue, 'What an agent would get as related_errors for a query')
            break
        }
        'sessionctl;help;errors;list' {
            break
        }
        'sessionctl;help;errors;show' {
            break
        }
        'sessionctl;help;errors;edit' {
            break
        }
        'sessionctl;help;errors;prune' {
            break
        }
        'sessionctl;help;errors;search' {
            break
        }
        'sessionctl;help;check' {
            break
        }
        'sessionctl;help;limits' {
            [CompletionResult]::new('refresh', 'refresh', [CompletionResultType]::ParameterValue, 'Fetch a context-window table and merge it into the cache')
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Show window, source and budget for agents (default: those the sessions use)')
            [CompletionResult]::new('learn', 'learn', [CompletionResultType]::ParameterValue, 'Learn a model''s real limit from a provider''s context-overflow error')
            [CompletionResult]::new('forget', 'forget', [CompletionResultType]::ParameterValue, 'Forget a learned limit (the table''s window applies again)')
            break
        }
        'sessionctl;help;limits;refresh' {
            break
        }
        'sessionctl;help;limits;show' {
            break
        }
        'sessionctl;help;limits;learn' {
            break
        }
        'sessionctl;help;limits;forget' {
            break
        }
        'sessionctl;help;remove' {
            break
        }
        'sessionctl;help;log' {
            break
        }
        'sessionctl;help;undo' {
            break
        }
        'sessionctl;help;trash' {
            [CompletionResult]::new('list', 'list', [CompletionResultType]::ParameterValue, 'The entries of sessions/.Trash: session, time, operation and size')
            [CompletionResult]::new('restore', 'restore', [CompletionResultType]::ParameterValue, 'Put a trash entry back (all tiers); refuses if the session exists; `undo` takes it back to the Trash')
            [CompletionResult]::new('prune', 'prune', [CompletionResultType]::ParameterValue, 'Delete old trash entries for good (cannot be undone)')
            break
        }
        'sessionctl;help;trash;list' {
            break
        }
        'sessionctl;help;trash;restore' {
            break
        }
        'sessionctl;help;trash;prune' {
            break
        }
        'sessionctl;help;export' {
            break
        }
        'sessionctl;help;import' {
            break
        }
        'sessionctl;help;completions' {
            break
        }
        'sessionctl;help;man' {
            break
        }
        'sessionctl;help;config' {
            [CompletionResult]::new('show', 'show', [CompletionResultType]::ParameterValue, 'Every setting in effect and where it came from: flag, env, file or default')
            break
        }
        'sessionctl;help;config;show' {
            break
        }
        'sessionctl;help;help' {
            break
        }
    })

    $completions.Where{ $_.CompletionText -like "$wordToComplete*" } |
        Sort-Object -Property ListItemText
}
