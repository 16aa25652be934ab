import { readFileSync } from "fs";

/** The most names kept. */
export const LIMIT = 40;

export interface Greeter {
  greet(name: string): string;
}

export type Name = string;

enum Mode { Plain, Loud }

/**
 * Store keeps names.
 */
export class Store implements Greeter {
  private names: Name[] = [];

  constructor(private root: string) {}

  greet(name: string): string {
    return `hello ${name}`;
  }

  load(path: string): number {
    const text = readFileSync(path, "utf8");
    for (const line of text.split("\n")) {
      if (line.length > LIMIT) {
        this.names.push(line.slice(0, LIMIT));
      } else {
        this.names.push(line);
      }
    }
    if (this.names.length > 10) {
      this.names = this.names.slice(-10);
    }
    return this.names.length;
  }
}

export const double = (n: number): number => n * 2;

function mode(): Mode {
  return Mode.Plain;
}
