//! How lowered decorators and accessors behave under Node.

use super::Decorators;
use std::path::Path;

/// What `source` prints, transpiled as the grader does and run under
/// Node with the grader's runtime.
fn run(source: &str) -> String {
    let js = match super::super::transpile(source, Path::new("/x/router.ts"), Decorators::Standard)
    {
        Ok(js) => js,
        Err(e) => panic!("not transpiled: {e:?}"),
    };
    let dir = tempfile::tempdir().unwrap();
    let module = dir.path().join("router.mjs");
    std::fs::write(&module, js).unwrap();
    let runtime = concat!(
        concat!(env!("CARGO_MANIFEST_DIR"), "/../.."),
        "/drivers/typescript_runtime.js"
    );
    let out = std::process::Command::new("node")
        .arg("--require")
        .arg(runtime)
        .arg(&module)
        .output()
        .expect("node runs the lowered module");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    String::from_utf8_lossy(&out.stdout).trim_end().to_owned()
}

fn refusal(source: &str) -> String {
    match super::super::transpile(source, Path::new("/x/router.ts"), Decorators::Standard) {
        Err(super::super::TranspileFailure::Learner(e)) => e.message,
        other => panic!("not refused as the learner's: {other:?}"),
    }
}

#[test]
fn a_static_accessor_is_read_through_a_subclass_and_a_replacing_class() {
    let out = run("
const sub = (C: any, _: any) => class extends C {};
class S { static accessor n = 1; static inc() { return ++this.n; } }
class T extends S {}
@sub class D { static accessor m = 2; }
const A = class { static accessor k = 3; };
class B extends A {}
console.log(T.n, T.inc(), S.n, D.m, (D.m = 5), B.k, (B.k = 6), A.k);
");
    assert_eq!(out, "1 2 2 2 5 3 6 6");
}

#[test]
fn a_class_defined_twice_keeps_its_own_decorators() {
    let out = run("
function add(n: number) { return (_: any, ctx: any) => (v: number) => v + n; }
function mark(n: number) {
  return (_: any, ctx: any) => { ctx.addInitializer(function (this: any) { this.mark = n; }); };
}
function make(Base: any, n: number) {
  class K extends Base { @add(n) x = 0; @mark(n) m() {} }
  return K;
}
const K1 = make(Object, 1);
const K2 = make(K1, 2);
const a = new K1(), b = new K2();
console.log(a.x, a.mark, b.x, b.mark);
");
    // b's x is set by K1 (0 + 1), then redefined by K2 (0 + 2).
    assert_eq!(out, "1 1 2 2");
}

#[test]
fn decorators_are_applied_and_initializers_run_in_typescripts_order() {
    let out = run("
const log: string[] = [];
function d(name: string) {
  return (v: any, ctx: any) => {
log.push('apply ' + name);
ctx.addInitializer(function (this: any) {
  log.push('init ' + name + (ctx.kind === 'field' ? '=' + this[ctx.name] : ''));
});
  };
}
@d('class')
class A {
  @d('field') x = 1;
  @d('method') m() {}
  @d('static field') static y = 2;
  @d('static method') static n() {}
}
log.push('defined');
new A();
console.log(log.join(', '));
");
    assert_eq!(
        out,
        "apply static method, apply method, apply static field, apply field, apply class, \
         init static method, init static field=2, init class, defined, init method, init field=1"
    );
}

#[test]
fn a_decorated_anonymous_class_keeps_the_name_it_stands_for() {
    let out = run("
const names: string[] = [];
const named = (C: any, ctx: any) => { names.push(ctx.name); };
const X = @named class {};
let Y; Y = @named class {};
const o = { Z: @named class {} };
console.log(X.name, Y.name, o.Z.name, names.join());
");
    assert_eq!(out, "X Y Z X,Y,Z");
}

#[test]
fn odd_but_valid_fields_are_lowered_into_code_that_runs() {
    // A definite `x!`, a last member without `;`, names in brackets.
    let out = run("
const one = (_: any, ctx: any): any => ctx.kind === 'accessor' ? { init: () => 1 } : () => 1;
class A {
  @one x!: number;
  @one accessor y!: number;
  @one ['z'] = 0;
  accessor ['w'] = 4;
  @one 7 = 0
  @one q: number
}
const a: any = new A();
console.log(a.x, a.y, a.z, a.w, a[7], a.q);
");
    assert_eq!(out, "1 1 1 4 1 1");
}

#[test]
fn a_decorator_that_needs_the_enclosing_function_is_refused_where_it_is() {
    for (source, at) in [
        (
            "const p = Promise.resolve((v: any) => v);\nclass A {\n  @(await p) m() {}\n}\n",
            "router.ts:3:5: a decorator that uses `await`",
        ),
        (
            "function* g() {\n  @(yield 1) class A {}\n}\n",
            "router.ts:2:5: a decorator that uses `yield`",
        ),
        (
            "function f() {\n  class A { @(arguments[0]) m() {} }\n}\n",
            "router.ts:2:15: a decorator that uses `arguments`",
        ),
    ] {
        let message = refusal(source);
        assert!(message.starts_with(at), "{message}");
    }
}
