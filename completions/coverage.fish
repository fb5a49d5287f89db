# fish completion for coverage. Generated from the command tree by `coverage completion fish`: do not edit.
# Install: save this file as ~/.config/fish/completions/coverage.fish, or run
# `coverage completion fish | source` in ~/.config/fish/config.fish.

function __coverage_commands --argument-names path --description 'The subcommands of a command path, with descriptions'
    switch "$path"
        case ''
            printf '%s\t%s\n' 'search' 'find policies by text, code, payer, line of business, state and date'
            printf '%s\t%s\n' 'policy' 'show one policy version: dates, state, applicability, codes and criteria'
            printf '%s\t%s\n' 'payers' 'list payers with at least one policy, past or present'
            printf '%s\t%s\n' 'lobs' 'list lines of business (a payer\'s product in a category, optionally one state)'
            printf '%s\t%s\n' 'updates' 'recent new and updated policies, grouped by effective date, then payer'
            printf '%s\t%s\n' 'download' 'save a policy\'s stored file (the original, or --text for markdown)'
            printf '%s\t%s\n' 'health' 'check the service: GET /health and GET /ready, and with a key set, that the API accepts it (GET /v1/payers?limit=1); exit 0 only when all answer 200'
            printf '%s\t%s\n' 'config' 'stored settings per profile (--profile): api-url, sandbox-url, api-key, format, timeout'
            printf '%s\t%s\n' 'completion' 'print the shell completion script (bash, zsh or fish)'
            printf '%s\t%s\n' 'serve' 'serve the local engine as the HTTP API (a stand-in for integrators and tests)'
            printf '%s\t%s\n' 'help' 'display help for command'
        case 'config'
            printf '%s\t%s\n' 'get' 'print a stored value (api-key masked)'
            printf '%s\t%s\n' 'set' 'store a value; api-key is read from stdin or a hidden prompt, never argv'
            printf '%s\t%s\n' 'unset' 'remove a stored value'
            printf '%s\t%s\n' 'list' 'the active profile\'s stored values (api-key masked)'
            printf '%s\t%s\n' 'path' 'print where the config file is'
            printf '%s\t%s\n' 'help' 'display help for command'
        case '*'
            return 1
    end
end

function __coverage_options --argument-names path --description 'The options recognised after a command path, with descriptions'
    switch "$path"
        case ''
            printf '%s\t%s\n' '--version' 'print the version'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
        case 'search'
            printf '%s\t%s\n' '--query' 'full-text words across titles and summaries: rank, never filter'
            printf '%s\t%s\n' '--code' 'one system\'s codes, e.g. CPT:97110,97112 (repeatable)'
            printf '%s\t%s\n' '--relationship' 'covers, does-not-cover, references (comma list)'
            printf '%s\t%s\n' '--match' 'across --code refs: any (OR) or all (AND)'
            printf '%s\t%s\n' '--payer' 'payer ids (repeatable, comma-separated)'
            printf '%s\t%s\n' '--lob' 'LOB categories: commercial, medicare_part_a, medicare_part_b, medicare_advantage, medicare_part_d, medicaid, individual_aca'
            printf '%s\t%s\n' '--lob-id' 'LOB ids (repeatable, comma-separated)'
            printf '%s\t%s\n' '--state' 'state codes, any case (nationwide always included)'
            printf '%s\t%s\n' '--effective-start' 'in effect on or after DATE (YYYY-MM-DD)'
            printf '%s\t%s\n' '--effective-end' 'taken effect on or before DATE (YYYY-MM-DD)'
            printf '%s\t%s\n' '--effective-on' 'in effect on DATE (start and end)'
            printf '%s\t%s\n' '--retired' 'retired versions only'
            printf '%s\t%s\n' '--no-retired' 'versions not retired (upcoming included)'
            printf '%s\t%s\n' '--sort' 'result order: policy_id_asc, policy_id_desc, title_asc, title_desc, policy_number_asc, policy_number_desc, relevance (default relevance)'
            printf '%s\t%s\n' '--limit' 'results per page, 1-100 (default 20)'
            printf '%s\t%s\n' '--offset' 'results to skip (default 0)'
            printf '%s\t%s\n' '--applicability' 'include each result\'s applicability (a table column too)'
            printf '%s\t%s\n' '--code-groups' 'include each result\'s code groups (a table column too)'
            printf '%s\t%s\n' '--body' 'a whole filter body as JSON (file or - for stdin); flags override it'
            printf '%s\t%s\n' '--all' 'fetch every page (add --limit 100 for fewer requests)'
            printf '%s\t%s\n' '--dry-run' 'print the request instead of sending it'
            printf '%s\t%s\n' '--fields' 'the columns (table, csv) or item keys (json, ndjson) to show, comma-separated; a wrong name lists the valid ones'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'policy'
            printf '%s\t%s\n' '--criteria' 'print only the criteria text (markdown)'
            printf '%s\t%s\n' '--dry-run' 'print the request instead of sending it'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'payers'
            printf '%s\t%s\n' '--lob' 'only payers with policies in these LOB categories: commercial, medicare_part_a, medicare_part_b, medicare_advantage, medicare_part_d, medicaid, individual_aca (repeatable, comma-separated)'
            printf '%s\t%s\n' '--limit' 'results per page, 1-100 (default 20)'
            printf '%s\t%s\n' '--offset' 'results to skip (default 0)'
            printf '%s\t%s\n' '--all' 'fetch every page (add --limit 100 for fewer requests)'
            printf '%s\t%s\n' '--dry-run' 'print the request instead of sending it'
            printf '%s\t%s\n' '--fields' 'the columns (table, csv) or item keys (json, ndjson) to show, comma-separated; a wrong name lists the valid ones'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'lobs'
            printf '%s\t%s\n' '--lob' 'LOB categories: commercial, medicare_part_a, medicare_part_b, medicare_advantage, medicare_part_d, medicaid, individual_aca (repeatable, comma-separated)'
            printf '%s\t%s\n' '--payer' 'payer ids (repeatable, comma-separated)'
            printf '%s\t%s\n' '--state' 'state or jurisdiction codes, any case; exact match, so nationwide LOBs are left out'
            printf '%s\t%s\n' '--limit' 'results per page, 1-100 (default 20)'
            printf '%s\t%s\n' '--offset' 'results to skip (default 0)'
            printf '%s\t%s\n' '--all' 'fetch every page (add --limit 100 for fewer requests)'
            printf '%s\t%s\n' '--dry-run' 'print the request instead of sending it'
            printf '%s\t%s\n' '--fields' 'the columns (table, csv) or item keys (json, ndjson) to show, comma-separated; a wrong name lists the valid ones'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'updates'
            printf '%s\t%s\n' '--days' 'look back N days, 1-365 (default 30; sent as `days` only when given)'
            printf '%s\t%s\n' '--limit' 'results per page, 1-100 (default 20)'
            printf '%s\t%s\n' '--offset' 'results to skip (default 0)'
            printf '%s\t%s\n' '--all' 'fetch every page (add --limit 100 for fewer requests)'
            printf '%s\t%s\n' '--dry-run' 'print the request instead of sending it'
            printf '%s\t%s\n' '--fields' 'the columns (table, csv) or item keys (json, ndjson) to show, comma-separated; a wrong name lists the valid ones'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'download'
            printf '%s\t%s\n' '--text' 'the markdown text version (variant text) instead of the original file'
            printf '%s\t%s\n' '-o' 'a file, a folder, or - for stdout (default: the suggested name in the current folder)'
            printf '%s\t%s\n' '--output' 'a file, a folder, or - for stdout (default: the suggested name in the current folder)'
            printf '%s\t%s\n' '--force' 'overwrite an existing file'
            printf '%s\t%s\n' '--url-only' 'print the download link (the API\'s JSON) instead of downloading'
            printf '%s\t%s\n' '--dry-run' 'print the link request instead of sending it'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'health'
            printf '%s\t%s\n' '--dry-run' 'print the requests instead of sending them'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'config'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'config get'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'config set'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'config unset'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'config list'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'config path'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'config help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'completion'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'serve'
            printf '%s\t%s\n' '--port' 'port to listen on; 0 = any free port (default 8787)'
            printf '%s\t%s\n' '--host' 'address to bind (default 127.0.0.1)'
            printf '%s\t%s\n' '--api-key' 'require this x-api-key (env COVERAGE_SERVE_KEY; default: no auth)'
            printf '%s\t%s\n' '--sandbox' 'sandbox mode: fixed result set, 100 requests per minute per key'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case 'help'
            printf '%s\t%s\n' '-h' 'show help'
            printf '%s\t%s\n' '--help' 'show help'
            printf '%s\t%s\n' '--api-url' 'base URL of the Coverage Policy Lookup API (env COVERAGE_API_URL)'
            printf '%s\t%s\n' '--sandbox' 'use the API sandbox (COVERAGE_SANDBOX_URL or the profile\'s sandbox-url)'
            printf '%s\t%s\n' '--local' 'use the bundled local engine (the default when no API is configured)'
            printf '%s\t%s\n' '--data' 'dataset for the local engine (env COVERAGE_DATA; default: bundled sample)'
            printf '%s\t%s\n' '--today' 'pin \'today\' for the local engine, YYYY-MM-DD (env COVERAGE_TODAY)'
            printf '%s\t%s\n' '--profile' 'config profile (env COVERAGE_PROFILE; default \'default\')'
            printf '%s\t%s\n' '--json' 'print the API\'s JSON (same as --format json)'
            printf '%s\t%s\n' '--format' 'output format'
            printf '%s\t%s\n' '--no-color' 'no colour (NO_COLOR and FORCE_COLOR are honoured too)'
            printf '%s\t%s\n' '-q' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '--quiet' 'no notices or warnings on stderr'
            printf '%s\t%s\n' '-v' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--verbose' 'log each HTTP request on stderr; stack traces on errors'
            printf '%s\t%s\n' '--timeout' 'HTTP timeout in milliseconds (default 30000)'
        case '*'
            return 1
    end
end

function __coverage_option --argument-names path option --description 'What a command\'s own option takes: none, text, file, or choices|list|partial and values'
    switch "$path|$option"
        case '|--version' '|--sandbox' '|--local' '|--json' '|--no-color' '|-q' '|--quiet' '|-v' \
            '|--verbose' '|-h' '|--help' 'search|--retired' 'search|--no-retired' \
            'search|--applicability' 'search|--code-groups' 'search|--all' 'search|--dry-run' \
            'search|-h' 'search|--help' 'policy|--criteria' 'policy|--dry-run' 'policy|-h' \
            'policy|--help' 'payers|--all' 'payers|--dry-run' 'payers|-h' 'payers|--help' \
            'lobs|--all' 'lobs|--dry-run' 'lobs|-h' 'lobs|--help' 'updates|--all' \
            'updates|--dry-run' 'updates|-h' 'updates|--help' 'download|--text' 'download|--force' \
            'download|--url-only' 'download|--dry-run' 'download|-h' 'download|--help' \
            'health|--dry-run' 'health|-h' 'health|--help' 'config|-h' 'config|--help' \
            'config get|-h' 'config get|--help' 'config set|-h' 'config set|--help' \
            'config unset|-h' 'config unset|--help' 'config list|-h' 'config list|--help' \
            'config path|-h' 'config path|--help' 'completion|-h' 'completion|--help' \
            'serve|--sandbox' 'serve|-h' 'serve|--help' 'help|-h' 'help|--help'
            printf '%s\n' 'none'
        case '|--api-url' '|--today' '|--profile' '|--timeout' 'search|--query' 'search|--payer' \
            'search|--lob-id' 'search|--effective-start' 'search|--effective-end' \
            'search|--effective-on' 'search|--limit' 'search|--offset' 'search|--fields' \
            'payers|--limit' 'payers|--offset' 'payers|--fields' 'lobs|--payer' 'lobs|--limit' \
            'lobs|--offset' 'lobs|--fields' 'updates|--days' 'updates|--limit' 'updates|--offset' \
            'updates|--fields' 'serve|--port' 'serve|--host' 'serve|--api-key'
            printf '%s\n' 'text'
        case '|--data' 'search|--body' 'download|-o' 'download|--output'
            printf '%s\n' 'file'
        case '|--format'
            printf '%s\n' 'choices' 'table' 'json' 'ndjson' 'csv'
        case 'search|--code'
            printf '%s\n' 'partial' 'CPT:' 'CPT_MODIFIER:' 'HCPCS:' 'HCPCS_MODIFIER:' 'ICD10CM:'
        case 'search|--relationship'
            printf '%s\n' 'list' 'covers' 'does-not-cover' 'references'
        case 'search|--match'
            printf '%s\n' 'choices' 'any' 'all'
        case 'search|--lob' 'payers|--lob' 'lobs|--lob'
            printf '%s\n' 'list' 'commercial' 'medicare_part_a' 'medicare_part_b' 'medicare_advantage' 'medicare_part_d' 'medicaid' 'individual_aca'
        case 'search|--state' 'lobs|--state'
            printf '%s\n' 'list' 'AL' 'AK' 'AZ' 'AR' 'CA' 'CO' 'CT' 'DE' 'FL' 'GA' 'HI' 'ID' 'IL' 'IN' 'IA' 'KS' 'KY' 'LA' 'ME' 'MD' 'MA' 'MI' 'MN' 'MS' 'MO' 'MT' 'NE' 'NV' 'NH' 'NJ' 'NM' 'NY' 'NC' 'ND' 'OH' 'OK' 'OR' 'PA' 'RI' 'SC' 'SD' 'TN' 'TX' 'UT' 'VT' 'VA' 'WA' 'WV' 'WI' 'WY' 'DC' 'AS' 'GU' 'PR' 'VI' 'CNMI' 'NF' 'SF' 'DN' 'QN' 'UN' 'EM' 'WM'
        case 'search|--sort'
            printf '%s\n' 'choices' 'policy_id_asc' 'policy_id_desc' 'title_asc' 'title_desc' 'policy_number_asc' 'policy_number_desc' 'relevance'
        case '*'
            return 1
    end
end

function __coverage_argument --argument-names path index --description 'What a positional argument (from 0) of a path takes, as for options'
    switch "$path|$index"
        case 'config get|0'
            printf '%s\n' 'choices' 'api-url' 'sandbox-url' 'api-key' 'format' 'timeout'
        case 'config set|0'
            printf '%s\n' 'choices' 'api-url' 'sandbox-url' 'api-key' 'format' 'timeout'
        case 'config set|1'
            printf '%s\n' 'text'
        case 'config unset|0'
            printf '%s\n' 'choices' 'api-url' 'sandbox-url' 'api-key' 'format' 'timeout'
        case 'config help|0'
            printf '%s\n' 'choices' 'get' 'set' 'unset' 'list' 'path'
        case 'completion|0'
            printf '%s\n' 'choices' 'bash' 'zsh' 'fish'
        case 'help|0'
            printf '%s\n' 'choices' 'search' 'policy' 'payers' 'lobs' 'updates' 'download' 'health' 'config' 'completion' 'serve'
        case '*'
            echo text
    end
end

function __coverage_offer --description 'Candidates for token $argv[1] after prefix $argv[2], from a spec'
    set -l cur $argv[1]
    set -l prefix $argv[2]
    set -l kind $argv[3]
    set -l values $argv[4..-1]
    switch $kind
        case file
            for path in (__fish_complete_path $cur)
                printf '%s%s\n' $prefix $path
            end
        case list
            set -l head (string match -r -- '^.*,' $cur)
            set -l chosen (string split , -- "$head")
            for value in $values
                contains -- $value $chosen; or printf '%s%s%s\n' $prefix "$head" $value
            end
        case choices partial
            for value in $values
                printf '%s%s\n' $prefix $value
            end
    end
end

function __coverage_lookup --argument-names path option --description 'What an option takes after a path: the nearest definition, its own or inherited'
    while true
        __coverage_option "$path" $option; and return
        test -z "$path"; and break
        set path (string replace -r -- ' ?[^ ]*$' '' $path)
    end
    echo none
end

function __coverage_complete --description 'Completions for the coverage command line'
    set -l tokens (commandline -opc)
    set -l cur (commandline -ct)
    set -e tokens[1]
    set -l path ''
    set -l nargs 0
    set -l expect ''
    set -l ended 0
    for token in $tokens
        if test -n "$expect"
            set expect ''
        else if test $ended = 0; and string match -q -- '-*' $token
            if test $token = --
                set ended 1
            else if not string match -q -- '--*=*' $token
                set -l spec (__coverage_lookup "$path" $token)
                test "$spec[1]" != none; and set expect $token
            end
        else if test $nargs = 0; and contains -- $token (__coverage_commands "$path" | string replace -r '\t.*' '')
            set path (string trim -- "$path $token")
        else
            set nargs (math $nargs + 1)
        end
    end
    if test -n "$expect"
        __coverage_offer "$cur" '' (__coverage_lookup "$path" $expect)
    else if test $ended = 0; and string match -q -- '--*=*' $cur
        set -l parts (string split -m 1 = -- $cur)
        __coverage_offer "$parts[2]" "$parts[1]=" (__coverage_lookup "$path" $parts[1])
    else if test $ended = 0; and string match -q -- '-*' $cur
        __coverage_options "$path"
    else if test $nargs = 0; and set -l commands (__coverage_commands "$path")
        printf '%s\n' $commands
    else
        __coverage_offer "$cur" '' (__coverage_argument "$path" $nargs)
    end
end

complete -c coverage -e
complete -c coverage -f -a '(__coverage_complete)'
