// The text `plant-store-stub --help` prints: the usage lines, then every flag as the table of
// command-line options (config/option-table.ts) declares it, with the defaults of
// config/defaults.ts, so the help cannot drift from the flags the parser takes.
import { optionsHelp } from './config/option-table.js';

export const HELP = `Usage: plant-store-stub [options]
       plant-store-stub mock FILE [-p PORT] [-h HOST] [-d] [--errors] [options]
                        (Prism's command line: implies --compat prism)
       plant-store-stub fixture-schema [--spec FILE]
                        (prints the fixture files' JSON Schema, for editors)

Serves an OpenAPI 3.0/3.1/3.2 (or Swagger 2.0) document as a stub API.

Options:
${optionsHelp()}

Without --spec and without ./openapi.yaml, the bundled Plant Store document is served.
From a clone, pass flags after --:  npm start -- --spec other.yaml --port 0
`;
