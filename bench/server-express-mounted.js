// The stub as a library: createStubApp() mounted at the root of a host Express 5 app, the way a
// user embeds it next to their own routes. Compare with server-express-minimal.js.
// Usage: node bench/server-express-mounted.js [PORT] [--spec FILE]   (0 or none = any free port)
import express from 'express';
import { createStubApp } from '../dist/index.js';
import { announce, portArg } from './plant-check.js';

const argv = process.argv.slice(2);
const specAt = argv.indexOf('--spec');
const spec = specAt >= 0 ? argv[specAt + 1] : 'openapi.yaml';
const port = portArg(specAt >= 0 ? argv.toSpliced(specAt, 2) : argv);

const app = express();
app.use('/', await createStubApp({ spec, log: false }));

const server = app.listen(port, '127.0.0.1', (error) => {
  if (error) throw error;
  announce(server);
});
