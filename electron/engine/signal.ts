// A one-way signal inside the engine: a part says that something moved, and whoever cares
// subscribes, so data flows from the part that knows to the parts that show or decide, and no
// part holds a reference back to the one that made it.
export class Signal<T = void> {
  private readonly listeners: ((value: T) => void)[] = [];

  on(listener: (value: T) => void): void {
    this.listeners.push(listener);
  }

  fire(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
}
