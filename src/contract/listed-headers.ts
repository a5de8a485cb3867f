/**
 * The response headers whose values what the run shares (reports, HAR, console) keeps as they are, after redaction:
 * those the contract names and those HTTP defines with a value of a known form. Any other header's value is kept as
 * its length and a short hash (src/http/listed-material.ts) unless the user asks for a raw record: no list of decoders
 * finds a secret in every encoding a server may invent, and a header the contract does not name says nothing the
 * verdict needs. Names in lower case.
 */
export const LISTED_RESPONSE_HEADERS: ReadonlySet<string> = new Set([
  // The contract's.
  'x-request-id',
  'x-service-source',
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-scope',
  // HTTP's: representation, caching, connection, redirection and authentication metadata.
  'content-type',
  'content-length',
  'content-encoding',
  'content-language',
  'transfer-encoding',
  'connection',
  'keep-alive',
  'date',
  'age',
  'expires',
  'last-modified',
  'etag',
  'cache-control',
  'pragma',
  'vary',
  'allow',
  'accept-ranges',
  'location',
  'content-location',
  'link',
  'www-authenticate',
  'strict-transport-security',
])
