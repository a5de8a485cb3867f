/** The one JSON line `ipts-conformance reference` prints once it listens. */
export interface Ready {
  url: string
  apiKey: string
  restrictedApiKey: string
  trader: string
  intents: { hash: string; receipt: string }[]
  realtime: { ticket: string; websocket: string; open: string; channels: string[] }
}
