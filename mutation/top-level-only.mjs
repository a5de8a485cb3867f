// @ts-check
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin'

/**
 * A StrykerJS ignorer that keeps the mutants of a module's top-level code alone (its tables, patterns, lists and the
 * checks' definitions) and ignores those inside a function, which the other parts measure with per-test coverage
 * (ignoreStatic). The static part (stryker.static.config.mjs) uses it, so that no mutant is run twice. A function
 * written at the top level is itself top-level code: the mutant that empties it is kept, those of its body are not;
 * an instance field's initializer is not (it runs when an instance is made).
 */
export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'top-level-only', {
    shouldIgnore(path) {
      if (path.getFunctionParent()) return 'inside a function: measured by another part'
      // A field's initializer runs when an instance is made, inside a test, as a function's body does.
      const field = path.findParent((parent) => parent.isClassProperty() || parent.isClassPrivateProperty())
      return field && !field.node.static ? 'in an instance field: measured by another part' : undefined
    },
  }),
]
