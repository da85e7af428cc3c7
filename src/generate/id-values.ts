// New identities shaped like a known one: the value's last characters redrawn within their own
// class (digit, hex letter, letter), so a uuid stays a uuid and `SM` + 32 hex digits still fits
// its pattern. What keeps list items distinct and gives stateful creates ids in the document's
// own format; derived from a hash, so the same inputs give the same id.

export function redrawId(value: string, hash: number): string {
  const chars = [...value];
  let drawn = 0;
  for (let i = chars.length - 1; i >= 0 && drawn < 6; i--) {
    const pick = (hash >>> (drawn * 5)) + drawn;
    const c = chars[i];
    if (/[0-9]/.test(c)) chars[i] = String(pick % 10);
    else if (/[a-f]/.test(c)) chars[i] = 'abcdef'[pick % 6];
    else if (/[A-F]/.test(c)) chars[i] = 'ABCDEF'[pick % 6];
    else if (/[a-z]/.test(c)) chars[i] = String.fromCharCode(97 + (pick % 26));
    else if (/[A-Z]/.test(c)) chars[i] = String.fromCharCode(65 + (pick % 26));
    else continue;
    drawn++;
  }
  return chars.join('');
}
