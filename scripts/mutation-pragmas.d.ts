// The types of what scripts/mutation-pragmas.js gives its self-test.
export function filesWithoutMutants(root: string, files: string[]): Promise<string[]>
