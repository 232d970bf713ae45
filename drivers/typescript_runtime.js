'use strict';
// rendezvous-grader's runtime for TypeScript modules (loaded with
// `node --require` before the learner's module).
//
// The grader lowers what Node 20 cannot run into calls to the global
// `babelHelpers` object, the name oxc's transformer emits:
// - `using` declarations: usingCtx;
// - experimentalDecorators: decorate, decorateParam, decorateMetadata,
//   with TypeScript's own semantics (__decorate, __param, __metadata);
// - standard (TypeScript 5) decorators: decoratorsBegin, decoratorsMember,
//   decoratorsClass, decoratorsApply, decoratorsStart, decoratorsInit,
//   decoratorsExtra and decoratorsDone, called from static blocks and
//   field initializers the grader inserts into the class
//   (src/lang/typescript/lower.rs).

(function () {
  const disposeSymbol = () => Symbol.dispose || Symbol.for('Symbol.dispose');
  const asyncDisposeSymbol = () => Symbol.asyncDispose || Symbol.for('Symbol.asyncDispose');
  const metadataSymbol = () => Symbol.metadata || Symbol.for('Symbol.metadata');

  class SuppressedErrorShim extends Error {
    constructor(error, suppressed, message = 'An error was suppressed during disposal.') {
      super(message);
      this.name = 'SuppressedError';
      this.error = error;
      this.suppressed = suppressed;
    }
  }
  const Suppressed = typeof SuppressedError === 'function' ? SuppressedError : SuppressedErrorShim;

  // One block's `using` and `await using` resources, disposed in reverse
  // order when the block ends; `e` holds the error the block threw.
  function usingCtx() {
    const none = {};
    const stack = [];
    function add(isAsync, value) {
      if (value === null || value === undefined) {
        // `await using x = null` still awaits once at the end of the block.
        if (isAsync) stack.push({ value, dispose: null, isAsync });
        return value;
      }
      if (Object(value) !== value) {
        throw new TypeError('using declarations can only be used with objects, functions, null, or undefined');
      }
      let dispose = isAsync ? value[asyncDisposeSymbol()] : undefined;
      if (dispose === undefined) dispose = value[disposeSymbol()];
      if (typeof dispose !== 'function') {
        throw new TypeError(`${isAsync ? 'await using' : 'using'}: the value has no [Symbol.${isAsync ? 'asyncDispose' : 'dispose'}]() method`);
      }
      stack.push({ value, dispose, isAsync });
      return value;
    }
    return {
      e: none,
      u: (value) => add(false, value),
      a: (value) => add(true, value),
      d() {
        let error = this.e;
        const fail = (e) => {
          error = error === none ? e : new Suppressed(e, error);
        };
        if (!stack.some((r) => r.isAsync)) {
          while (stack.length) {
            const r = stack.pop();
            try {
              r.dispose.call(r.value);
            } catch (e) {
              fail(e);
            }
          }
          if (error !== none) throw error;
          return undefined;
        }
        return (async () => {
          while (stack.length) {
            const r = stack.pop();
            try {
              const done = r.dispose ? r.dispose.call(r.value) : undefined;
              if (r.isAsync) await done;
            } catch (e) {
              fail(e);
            }
          }
          if (error !== none) throw error;
        })();
      },
    };
  }

  // experimentalDecorators, as TypeScript emits them.
  function decorate(decorators, target, key, desc) {
    const c = arguments.length;
    let r = c < 3 ? target : desc === null ? (desc = Object.getOwnPropertyDescriptor(target, key)) : desc;
    for (let i = decorators.length - 1; i >= 0; i--) {
      const d = decorators[i];
      if (d) r = (c < 3 ? d(r) : c > 3 ? d(target, key, r) : d(target, key)) || r;
    }
    if (c > 3 && r) Object.defineProperty(target, key, r);
    return r;
  }
  function decorateParam(index, decorator) {
    return function (target, key) {
      decorator(target, key, index);
    };
  }
  function decorateMetadata(key, value) {
    if (typeof Reflect === 'object' && typeof Reflect.metadata === 'function') return Reflect.metadata(key, value);
    return undefined;
  }

  // Standard decorators. A class's state is kept for the class itself (and
  // its prototype, for its instances): a class defined again at the same
  // place (in a function called twice) has its own decorators, and
  // instances of the one defined first keep theirs.
  const byClass = new WeakMap();
  const byPrototype = new WeakMap();
  // The last state of each place, for an instance whose prototype chain
  // does not hold its class's (Reflect.construct with another newTarget).
  const latest = new Map();

  function decoratorsBegin(cls, id, name) {
    if (name !== undefined) {
      // An anonymous class expression the grader wrapped in a call: the
      // name it would have had from where it stands (`const X = class {}`).
      const own = Object.getOwnPropertyDescriptor(cls, 'name');
      if (own && own.value === '' && own.configurable) Object.defineProperty(cls, 'name', { value: name, configurable: true });
    }
    const parent = Object.getPrototypeOf(cls);
    const inherited = parent && Object.prototype.hasOwnProperty.call(parent, metadataSymbol()) ? parent[metadataSymbol()] : null;
    const state = {
      id,
      cls,
      result: cls,
      classDecorators: [],
      members: new Map(),
      fieldInits: new Map(),
      fieldExtras: new Map(),
      instanceInits: [],
      staticInits: [],
      classInits: [],
      metadata: Object.create(inherited),
    };
    byClass.set(cls, state);
    if (cls.prototype) byPrototype.set(cls.prototype, state);
    latest.set(id, state);
  }

  function stateOf(cls, id) {
    const state = byClass.get(cls) || latest.get(id);
    if (!state) throw new Error(`internal: decorators of class ${id} used before the class was defined`);
    return state;
  }

  function decoratorsClass(cls, id, decorator) {
    stateOf(cls, id).classDecorators.push(decorator);
  }

  function decoratorsMember(cls, id, member, decorator) {
    const state = stateOf(cls, id);
    let entry = state.members.get(member.key);
    if (!entry) {
      entry = { ...member, decorators: [] };
      state.members.set(member.key, entry);
    }
    entry.decorators.push(decorator);
  }

  function show(value) {
    if (typeof value === 'function') return `a function`;
    try {
      return JSON.stringify(value) ?? String(value);
    } catch (_) {
      return typeof value;
    }
  }

  function expectFunction(value, what) {
    if (value !== undefined && typeof value !== 'function') {
      throw new TypeError(`${what} returned ${show(value)}; it must return a function or undefined`);
    }
    return value;
  }

  function access(entry) {
    if (entry.access) return entry.access;
    const name = entry.name;
    const result = { has: (o) => name in Object(o) };
    if (entry.kind !== 'setter') result.get = (o) => o[name];
    if (entry.kind === 'field' || entry.kind === 'accessor' || entry.kind === 'setter') {
      result.set = (o, v) => {
        o[name] = v;
      };
    }
    return result;
  }

  // The order TypeScript applies member decorators in: static methods,
  // getters, setters and accessors, then those of instances, then static
  // fields, then instance fields, each in the order they are written.
  function applicationRank(entry) {
    const field = entry.kind === 'field';
    return (field ? 2 : 0) + (entry.static ? 0 : 1);
  }

  function decoratorsApply(cls, id) {
    const state = stateOf(cls, id);
    const statics = [];
    const entries = [...state.members.values()].sort((a, b) => applicationRank(a) - applicationRank(b));
    for (const entry of entries) {
      const target = entry.static ? cls : cls.prototype;
      const what = `the decorator of ${entry.static ? 'static ' : ''}${entry.kind} ${entry.name}`;
      const inits = [];
      const extras = [];
      // Methods, getters and setters add initializers that run before the
      // fields are initialised; fields and accessors, once they are.
      const fieldLike = entry.kind === 'field' || entry.kind === 'accessor';
      let desc = entry.kind === 'field' ? null : Object.getOwnPropertyDescriptor(target, entry.name);
      const original = desc && { get: desc.get, set: desc.set };
      for (const decorator of [...entry.decorators].reverse()) {
        const context = {
          kind: entry.kind,
          name: entry.name,
          static: entry.static,
          private: entry.private,
          access: access(entry),
          metadata: state.metadata,
          addInitializer(init) {
            if (typeof init !== 'function') throw new TypeError('addInitializer takes a function');
            if (fieldLike) extras.push(init);
            else if (entry.static) state.staticInits.push(init);
            else state.instanceInits.push(init);
          },
        };
        if (entry.kind === 'method') {
          desc.value = expectFunction(decorator(desc.value, context), what) ?? desc.value;
        } else if (entry.kind === 'getter') {
          desc.get = expectFunction(decorator(desc.get, context), what) ?? desc.get;
        } else if (entry.kind === 'setter') {
          desc.set = expectFunction(decorator(desc.set, context), what) ?? desc.set;
        } else if (entry.kind === 'field') {
          const init = expectFunction(decorator(undefined, context), what);
          if (init) inits.push(init);
        } else {
          const result = decorator({ get: desc.get, set: desc.set }, context);
          if (result !== undefined) {
            if (result === null || typeof result !== 'object') {
              throw new TypeError(`${what} returned ${show(result)}; it must return an object with get, set or init, or undefined`);
            }
            if (result.get !== undefined) desc.get = expectFunction(result.get, `${what} (its get)`);
            if (result.set !== undefined) desc.set = expectFunction(result.set, `${what} (its set)`);
            if (result.init !== undefined) inits.push(expectFunction(result.init, `${what} (its init)`));
          }
        }
      }
      if (desc) Object.defineProperty(target, entry.name, desc);
      if (entry.static) {
        if (inits.length) statics.push({ entry, inits, original });
        entry.extras = extras;
      } else {
        state.fieldInits.set(entry.key, inits);
        state.fieldExtras.set(entry.key, extras);
      }
    }
    // The class's own decorators, once its members' are applied.
    let result = cls;
    for (const decorator of [...state.classDecorators].reverse()) {
      const context = {
        kind: 'class',
        name: result.name,
        metadata: state.metadata,
        addInitializer(init) {
          if (typeof init !== 'function') throw new TypeError('addInitializer takes a function');
          state.classInits.push(init);
        },
      };
      result = expectFunction(decorator(result, context), `the decorator of class ${cls.name}`) ?? result;
    }
    state.result = result;
    defineMetadata(result, state);
    // Static fields were initialised before this block ran: their
    // decorators' initializers are applied to the values they got.
    for (const { entry, inits, original } of statics) {
      const get = entry.kind === 'accessor' ? (o) => original.get.call(o) : access(entry).get;
      const set = entry.kind === 'accessor' ? (o, v) => original.set.call(o, v) : access(entry).set;
      let value = get(cls);
      for (const init of inits) value = init.call(cls, value);
      set(cls, value);
    }
    for (const init of state.staticInits) init.call(cls);
    // Then those of static fields and accessors, in the order written.
    for (const entry of state.members.values()) {
      for (const init of (entry.static && entry.extras) || []) init.call(cls);
    }
    for (const init of state.classInits) init.call(result);
  }

  function defineMetadata(cls, state) {
    Object.defineProperty(cls, metadataSymbol(), { enumerable: true, configurable: true, writable: true, value: state.metadata });
  }

  // The class that stands for a decorated class: what its decorators
  // returned.
  function decoratorsDone(cls, id) {
    return stateOf(cls, id).result;
  }

  // The first private field of a class with decorated instance members:
  // finds the state of the class being constructed, runs the initializers
  // that its method decorators added, and keeps the state for the fields.
  const started = new WeakMap();
  function decoratorsStart(instance, id) {
    // The classes of this place above the instance, nearest first.
    const found = [];
    for (let proto = Object.getPrototypeOf(instance); proto !== null; proto = Object.getPrototypeOf(proto)) {
      const state = byPrototype.get(proto);
      if (state && state.id === id) found.push(state);
    }
    let state;
    if (found.length === 1) {
      state = found[0];
    } else if (found.length > 1) {
      // One class of this place extends another (a function that makes a
      // class called on its own result): base classes are constructed
      // first, so this is the farthest one not yet started.
      let done = started.get(instance);
      if (!done) started.set(instance, (done = new Set()));
      state = found.reverse().find((s) => !done.has(s)) || found[found.length - 1];
      done.add(state);
    } else {
      state = stateOf(undefined, id);
    }
    for (const init of state.instanceInits) init.call(instance);
    return state;
  }

  // A decorated instance field's (or accessor's) initial value, through
  // its decorators' initializers.
  function decoratorsInit(instance, state, key, value) {
    for (const init of state.fieldInits.get(key) || []) value = init.call(instance, value);
    return value;
  }

  // After a decorated instance field (or accessor) is defined: the
  // initializers its decorators added.
  function decoratorsExtra(instance, state, key) {
    for (const init of state.fieldExtras.get(key) || []) init.call(instance);
    return undefined;
  }

  const helpers = {
    usingCtx,
    decorate,
    decorateParam,
    decorateMetadata,
    decoratorsBegin,
    decoratorsClass,
    decoratorsMember,
    decoratorsApply,
    decoratorsDone,
    decoratorsStart,
    decoratorsInit,
    decoratorsExtra,
  };
  Object.defineProperty(globalThis, 'babelHelpers', { value: Object.freeze(helpers), enumerable: false });
})();
