import { isOperation } from '../response-edits.js'
import type { Fault } from '../types.js'

export const codingsFaults: readonly Fault[] = [
  {
    name: 'config-content-encoding-lies',
    description:
      "getConfig's 200 says Content-Encoding: gzip over a plain JSON body: a client that decodes as told reads no JSON.",
    breaks: ['config/answers-json', 'profile/config-schema'],
    onResponse(response, request) {
      if (isOperation(request, 'getConfig') && response.status === 200) response.headers['content-encoding'] = 'gzip'
    },
  },
]
