// Minimal Express 5 route doing the reference's work by hand (no express.json(), so no body-parser
// cost the stub might not pay either). It is the baseline for the mounted case: the gap between
// this and server-express-mounted.js is what the stub adds inside an Express app.
// Usage: node bench/server-express-minimal.js [PORT]   (0 or none = any free port)
import express from 'express';
import { answerPlant, announce, portArg } from './plant-check.js';

const app = express();
app.get('/__admin/health', (_req, res) => {
  res.json({ status: 'ok' });
});
app.post('/plants', (req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const { status, body } = answerPlant(req.get('authorization'), Buffer.concat(chunks).toString('utf8'));
    res.status(status).type('application/json').send(body);
  });
});

const server = app.listen(portArg(), '127.0.0.1', (error) => {
  if (error) throw error;
  announce(server);
});
