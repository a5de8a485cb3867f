// @ts-check
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin'

/**
 * Array methods that call their callback before they return: a callback of one called as a module loads runs then.
 * `from` is Array.from's mapping function.
 */
const CALLS_AT_ONCE = new Set([
  'every',
  'filter',
  'find',
  'findIndex',
  'findLast',
  'findLastIndex',
  'flatMap',
  'forEach',
  'from',
  'map',
  'reduce',
  'reduceRight',
  'some',
  'sort',
  'toSorted',
])

/** @typedef {import('@babel/core').NodePath} NodePath */

/** Whether `path` is what a call calls, or a callback an array method given it calls at once. */
function calledBy(path, call) {
  if (!call.isCallExpression() && !call.isNewExpression()) return false
  if (call.node.callee === path.node) return true
  const callee = call.node.callee
  return (
    callee.type === 'MemberExpression' &&
    callee.property.type === 'Identifier' &&
    CALLS_AT_ONCE.has(callee.property.name) &&
    call.node.arguments.includes(/** @type {never} */ (path.node))
  )
}

/** Whether a call is made as its module loads: in top-level code, or in a function that runs then. */
function madeAtLoad(call, seen) {
  const caller = call.getFunctionParent()
  return caller === null || runsAtLoad(caller, seen)
}

/** The binding a function is declared as (`function f` or `const f = () => ...`), if it has a name. */
function bindingOf(fn) {
  if (fn.isFunctionDeclaration() && fn.node.id) return fn.parentPath.scope.getBinding(fn.node.id.name)
  const declarator = fn.parentPath
  if (declarator?.isVariableDeclarator() && declarator.node.id.type === 'Identifier')
    return declarator.scope.getBinding(declarator.node.id.name)
  return undefined
}

/**
 * Whether a function runs as its module loads, so that its body is static code for StrykerJS (run before any test,
 * ignoreStatic): called there, by its name or at once, or given there as a callback to an array method.
 * @param {NodePath} fn
 * @param {Set<unknown>} seen the functions asked about already (a function calling itself)
 */
function runsAtLoad(fn, seen = new Set()) {
  if (seen.has(fn.node)) return false
  seen.add(fn.node)
  if (calledBy(fn, fn.parentPath)) return madeAtLoad(fn.parentPath, seen)
  const references = bindingOf(fn)?.referencePaths ?? []
  return references.some(
    (reference) => calledBy(reference, reference.parentPath) && madeAtLoad(reference.parentPath, seen),
  )
}

/**
 * Of each module (its Program node), the functions that run as it loads. They are found as StrykerJS enters the
 * module, before it places a mutant: a call it has wrapped in a mutant's switch no longer reads as a call.
 */
const runAtLoadByModule = new WeakMap()

function functionsRunAtLoad(program) {
  const found = new Set()
  program.traverse({
    Function(fn) {
      if (runsAtLoad(fn)) found.add(fn.node)
    },
  })
  return found
}

/**
 * A StrykerJS ignorer that keeps the mutants of the code a module runs as it loads (its tables, patterns, lists and
 * the checks' definitions) and ignores the others, which the other parts measure with per-test coverage
 * (ignoreStatic). The static parts (stryker.part.mjs, staticPart) use it, so that no mutant is left to none. Code
 * that runs as the module loads is its top-level code, and the body of a function that top-level code calls (a
 * table built by a call, a callback of `map`), but not a function made there to run later (a check's `run`), nor an
 * instance field's initializer (run when an instance is made).
 */
export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'top-level-only', {
    shouldIgnore(path) {
      if (path.isProgram()) runAtLoadByModule.set(path.node, functionsRunAtLoad(path))
      const fn = path.getFunctionParent()
      const runAtLoad = runAtLoadByModule.get(path.scope.getProgramParent().path.node)
      if (fn && !runAtLoad.has(fn.node)) return 'inside a function: measured by another part'
      // A field's initializer runs when an instance is made, inside a test, as a function's body does.
      const field = path.findParent((parent) => parent.isClassProperty() || parent.isClassPrivateProperty())
      return field && !field.node.static ? 'in an instance field: measured by another part' : undefined
    },
  }),
]
