// Not TypeScript: a class may not have a static member named `prototype`,
// and an `accessor` field is no exception. The grader's lowering of
// accessors is where this shows, and it is the learner's compile error at
// this line, never the grader's fault.
export class Router {
  static accessor prototype = 1;

  constructor(public nodes: string[]) {}

  route(key: string): string | null {
    return this.nodes[0] ?? null;
  }

  add(node: string): void {}

  remove(node: string): void {}
}
