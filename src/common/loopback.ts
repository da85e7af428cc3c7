// One rule for "this machine": used to decide whether /__admin needs a token (the bind address)
// and whom it trusts without one (Origin and Host headers).

/** `localhost`, `*.localhost`, `::1` (bracketed or not) and 127.0.0.0/8 name this machine. */
export function isLoopbackName(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'localhost' || lower.endsWith('.localhost') || lower === '::1' || lower === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(lower);
}
