// Wrong: a parameter list that never closes (line 5).

export class Router {
  private nodes: Set<string>;
  constructor(nodes: string[] {
    this.nodes = new Set(nodes);
  }
}
