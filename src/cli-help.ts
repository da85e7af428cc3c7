// The text `plant-store-stub --help` prints: every flag with its default, read from the one table
// of defaults (config/defaults.ts through options.ts), so the help cannot drift from them. Apart
// from cli.ts, which parses the flags, so that each file stays one thing a reader takes in whole.
import { DEFAULTS } from './config/options.js';

export const HELP = `Usage: plant-store-stub [options]
       plant-store-stub mock FILE [-p PORT] [-h HOST] [-d] [--errors] [options]
                        (Prism's command line: implies --compat prism)
       plant-store-stub fixture-schema [--spec FILE]
                        (prints the fixture files' JSON Schema, for editors)

Serves an OpenAPI 3.0/3.1/3.2 (or Swagger 2.0) document as a stub API.

Options:
  --spec FILE|URL       OpenAPI document to serve, a file or an http(s) URL (default ${DEFAULTS.spec});
                        repeatable: several documents on one port, each under its first
                        server's path or one given as --spec /orders=orders.yaml
  --overlay FILE        an OpenAPI Overlay (1.0) applied to the document before it is read;
                        repeatable, applied in order, watched like the document
                        (/orders=FILE: only to the document mounted at /orders)
  --fixtures DIR        folder of scenario fixtures (default ${DEFAULTS.fixtures}); with several
                        documents, also one per document: --fixtures /orders=DIR
  --port N              port, 0 picks a free one (default ${DEFAULTS.port}, env PORT)
  --host H              address to bind (default ${DEFAULTS.host}, env HOST)
  --token T             accepted bearer token, repeatable (env STUB_TOKENS, comma-separated);
                        default: any non-empty token
  --admin-token T       bearer token for /__admin (required when --host is not loopback,
                        where --compat prism turns /__admin off instead; env STUB_ADMIN_TOKEN)
  --seed N              another data set for generated data (default 0): the same
                        seed and request give the same bytes, across restarts too
  --max-body BYTES      largest request body (default ${DEFAULTS.maxBodyBytes})
  --max-state BYTES     stateful mode: the most bytes of stored items kept (default
                        ${DEFAULTS.maxStateBytes}); a change beyond it is 422
  --delay MS            delay before every answer (default 0; X-Mock-Delay overrides);
                        a spread draws each wait (seeded): 100-800 uniform,
                        median=200,p99=2000 log-normal
  --chaos P             answer a share P (0 to 1) of every operation's requests with one of
                        its documented 4xx/5xx answers (seeded: the same order, the same picks)
  --chaos-faults F,…    let --chaos also inject these faults (reset, close, timeout, malformed)
  --stream-interval MS  milliseconds between a streamed answer's events (text/event-stream,
                        JSON lines), the first sent at once (default ${DEFAULTS.streamIntervalMs})
  --stream-max-events N the most events a streamed answer sends, its terminator aside
                        (default ${DEFAULTS.streamMaxEvents})
  --journal-limit N     journal entries kept (default ${DEFAULTS.journalLimit})
  --coverage-out FILE   write the coverage report as JSON when the server stops
  --workers N           serve one port from N processes acting as one server (one state,
                        journal, coverage and sticky scenario); a dead worker is replaced
  --stateful            remember what clients create, update and delete (resources inferred
                        from the document: POST /plants, then GET /plants/{id})
  --state-file FILE     stateful mode's resources, loaded at start and written after changes
                        (implies --stateful; a file the stub cannot write stops the start)
  --seed-items N        stateful mode starts with the list examples' items and N generated
                        items per resource (default 0; a state file that holds state wins;
                        implies --stateful)
  --webhook NAME=URL    send the document's webhook NAME (its key under webhooks) to URL;
                        repeatable
  --callback-hosts H,…  hosts callbacks may reach, * for any (default: this machine when
                        bound to loopback, and the webhook targets' hosts)
  --state-store URL     redis://HOST:PORT/DB: instances sharing it act as one server (stateful
                        store, journal, coverage, sticky scenario)
  --proxy URL           forward requests to the real API at URL, check both sides against the
                        document, answer from the mock what it lacks (see docs/proxy.md)
  --proxy-timeout MS    wait this long for the upstream's answer headers, then 504
                        (default ${DEFAULTS.proxyTimeoutMs})
  --proxy-errors        refuse requests that break the document instead of forwarding them
  --record DIR          with --proxy: write the real API's answers into DIR as fixtures
                        (replay them offline with --fixtures DIR)
  --record-redact F,…   with --record: leave these request body fields (any depth) out of
                        the recorded match, e.g. password
  --drain-ms MS         at shutdown, keep serving this long after GET /__admin/ready
                        turned 503, so a load balancer stops sending first (default 0)
  --strict              refuse to start on a document with warnings (for spec authors in CI)
  --no-watch            do not reload the spec and fixtures when they change
  --no-cors             do not answer CORS preflights
  --log-format F        the log as text (default) or json: every line on stdout and stderr
                        one JSON object
  --quiet               no per-request log lines, and no coverage table at shutdown
                        unless --coverage-out is given
  --compat prism        answer as Prism does where the two differ (docs/compared-with-prism.md)
  -d, --dynamic         generate every answer from its schema, as Prefer: dynamic=true does
  --errors              an answer that breaks its own schema is a 500 saying why
  -h, --help            this text
  -v, --version         the version

Without --spec and without ./openapi.yaml, the bundled Plant Store document is served.
From a clone, pass flags after --:  npm start -- --spec other.yaml --port 0
`;
