// The types of what scripts/mutation-pragmas.js gives its self-test.
export function filesWithoutMutants(root: string, files: string[]): Promise<string[]>
export function mutantsOf(
  sources: ReadonlyMap<string, string>,
  ignorers?: readonly unknown[],
): Promise<import('@stryker-mutator/api/core').Mutant[]>
