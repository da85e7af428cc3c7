// Bare node:http reference for POST /plants: the least work a correct answer can take in Node
// (read body, JSON.parse, check bearer + id + name, echo). Every other server's req/s is given
// as a ratio of this one's. Usage: node bench/server-reference.js [PORT]   (0 or none = any free port)
import http from 'node:http';
import { answerPlant, announce, portArg } from './plant-check.js';

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/__admin/health') {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    return;
  }
  if (req.method !== 'POST' || req.url !== '/plants') {
    res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":404,"message":"not found"}');
    return;
  }
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', () => {
    const { status, body } = answerPlant(req.headers.authorization, Buffer.concat(chunks).toString('utf8'));
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  });
});

server.listen(portArg(), '127.0.0.1', () => announce(server));
