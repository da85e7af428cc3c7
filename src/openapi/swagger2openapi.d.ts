// The one function of swagger2openapi (which ships no types) that load-document.ts uses.
declare module 'swagger2openapi' {
  const converter: {
    convertObj(document: object, options: { patch?: boolean; warnOnly?: boolean; resolve?: boolean }): Promise<{ openapi: object }>;
  };
  export default converter;
}
