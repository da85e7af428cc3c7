// The Plant Store's POST /plants rule set written by hand, shared by the two baseline servers
// (server-reference.js, server-express-minimal.js) so both do exactly the same work and the only
// difference between them is the framework around it.

const BEARER = /^Bearer\s+\S/i;

/**
 * Checks one POST /plants request and returns the answer to send.
 * @param {string | undefined} authorization the Authorization header
 * @param {string} text the raw request body
 * @returns {{ status: number, body: string }}
 */
export function answerPlant(authorization, text) {
  if (!authorization || !BEARER.test(authorization)) {
    return fail(401, 'missing or invalid bearer token');
  }
  let plant;
  try {
    plant = JSON.parse(text);
  } catch {
    return fail(400, 'body is not JSON');
  }
  if (plant === null || typeof plant !== 'object' || Array.isArray(plant)) return fail(400, 'body must be an object');
  if (!Number.isInteger(plant.id)) return fail(400, 'id must be an integer');
  if (typeof plant.name !== 'string') return fail(400, 'name must be a string');
  if (plant.tag !== undefined && typeof plant.tag !== 'string') return fail(400, 'tag must be a string');
  return { status: 200, body: JSON.stringify({ name: plant.name, tag: plant.tag }) };
}

function fail(status, message) {
  return { status, body: JSON.stringify({ error: status, message }) };
}

/** The line the harness waits for, same shape as the CLI's first stdout line. */
export function announce(server) {
  const { port } = server.address();
  console.log(`listening on http://127.0.0.1:${port}`);
}

/** First positional argument as a port; 0 (any free port) when absent. */
export function portArg(argv = process.argv.slice(2)) {
  const positional = argv.find((a) => /^\d+$/.test(a));
  return positional === undefined ? 0 : Number(positional);
}
