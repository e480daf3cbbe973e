/**
 * One tool call's body as the XML call parser reads it (mirrors xml_block.py; the rules are in
 * xml_calls.ts). Linear in the text length: a call's tags are tokens found once, left to right,
 * and every run of the small automaton (between parameters, inside a parameter, inside a content
 * parameter) advances over them together; a complete call is resolved once, right to left; an
 * open call keeps its tokens and memos between feeds.
 */

import type { ToolUse } from "./tool_types.js";
import { toolUse } from "./tool_types.js";
import { put } from "./pyspell.js";
import { bisectLeft, bisectRight, dropPartialTag, find, isBlank, nonWs, span } from "./xml_grammar.js";
import type { Rope, ToolGrammar } from "./xml_grammar.js";

/** What a tag is between parameters: a parameter name, CLOSE for the tool's closing tag, or NONE. */
const NONE = "";
const CLOSE = null;
type Kind = string | null;

/** A pending activation: [offset, state (0 between parameters, 1 inside a parameter), name]. */
type Run = readonly [number, number, string];

function runLess(a: Run, b: Run): boolean {
  return a[0] !== b[0] ? a[0] < b[0] : a[1] !== b[1] ? a[1] < b[1] : a[2] < b[2];
}

/** A binary min-heap of runs (Python's heapq on tuples). */
class Heap {
  readonly items: Run[] = [];

  push(run: Run): void {
    const items = this.items;
    items.push(run);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!runLess(items[i] as Run, items[parent] as Run)) break;
      [items[i], items[parent]] = [items[parent] as Run, items[i] as Run];
      i = parent;
    }
  }

  pop(): Run {
    const items = this.items;
    const top = items[0] as Run;
    const last = items.pop() as Run;
    if (items.length > 0) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < items.length && runLess(items[l] as Run, items[m] as Run)) m = l;
        if (r < items.length && runLess(items[r] as Run, items[m] as Run)) m = r;
        if (m === i) break;
        [items[i], items[m]] = [items[m] as Run, items[i] as Run];
        i = m;
      }
    }
    return top;
  }
}

function get<K, V>(map: ReadonlyMap<K, V>, key: K): V {
  return map.get(key) as V;
}

export class Block {
  readonly tool: ToolGrammar;
  readonly start: number;
  private scan: number;
  /** Offsets of the tags read between parameters, and what they are there. */
  private readonly evPos: number[] = [];
  private readonly evKind: Kind[] = [];
  /** Offsets of each parameter's closing tags. */
  private readonly closes = new Map<string, number[]>();
  private readonly pending = new Heap();
  private gOn = false;
  private readonly vOn = new Set<string>();
  /** Offset just past the call's closing tag, once found. */
  end: number | null = null;
  private readonly wFinal = new Map<number, boolean>();
  private readonly wNext = new Map<number, number>();
  private readonly walks = new Map<number, [number, Map<string, string>]>();
  private readonly alive = new Map<string, number[]>();
  private readonly blankTo = new Map<number, number>();
  private readonly spans = new Map<string, string>();
  private readonly openWs = new Map<number, [number, number, number]>();
  /** Characters the whitespace scans of the open call examined (stays linear in the text). */
  scanned = 0;

  constructor(tool: ToolGrammar, start: number) {
    this.tool = tool;
    this.start = start;
    this.scan = start;
    for (const p of tool.openTag.keys()) this.closes.set(p, []);
    for (const p of tool.content) this.alive.set(p, []);
    this.pending.push([start, 0, ""]);
  }

  /** Read the tokens that arrived; stop at the call's end. Only the text from `scan` on is read. */
  advance(rope: Rope): void {
    const tool = this.tool;
    const pending = this.pending;
    const vOn = this.vOn;
    let last = this.scan;
    const base = this.scan;
    const text = rope.slice(base);
    const re = tool.tagRe;
    re.lastIndex = 0;
    for (let m = re.exec(text); m !== null; m = re.exec(text)) {
      const i = base + m.index;
      let kind: Kind = NONE;
      let tags: readonly string[];
      if (tool.sane) {
        tags = ["<" + (m[1] as string)];
        kind = tool.openOf.get(tags[0] as string) ?? NONE;
      } else {
        tags = tool.tags.filter((t) => text.startsWith(t, i - base));
        kind = tool.order.find((p) => tags.includes(get(tool.openTag, p))) ?? kind;
      }
      if (kind === NONE && tags.includes(tool.close)) kind = CLOSE;
      if (kind !== NONE) {
        this.evPos.push(i);
        this.evKind.push(kind);
      }
      while (pending.items.length > 0 && (pending.items[0] as Run)[0] <= i) {
        const [, state, name] = pending.pop();
        if (state) vOn.add(name);
        else this.gOn = true;
      }
      if (this.gOn && kind !== NONE) {
        this.gOn = false;
        if (kind === CLOSE) {
          this.end = i + tool.close.length;
          return;
        }
        pending.push([i + get(tool.openTag, kind).length, 1, kind]);
      }
      for (const tag of tags) {
        const p = tool.closeOf.get(tag);
        if (p === undefined) continue;
        get(this.closes, p).push(i);
        if (vOn.has(p)) {
          if (!tool.content.has(p)) vOn.delete(p);
          pending.push([i + tag.length, 0, ""]);
        }
      }
      last = i + (tags[0] as string).length;
      re.lastIndex = i - base + 1;
    }
    this.scan = Math.max(last, rope.length - tool.maxTag + 1, this.scan);
  }

  /** The call, once `end` is known: resolved right to left over its tokens. */
  complete(rope: Rope): ToolUse {
    const tool = this.tool;
    const { evPos, evKind, closes, start } = this;
    const last = (this.end as number) - tool.close.length;
    const text = rope.slice(start, this.end as number); // the call, read once: offsets below are shifted by start
    const nEv = bisectRight(evPos, last);
    const reach: boolean[] = new Array<boolean>(nEv).fill(false);
    const clean: boolean[] = new Array<boolean>(nEv).fill(false);
    const choice = new Map<number, number>();
    const suffix = new Map<string, [Map<number, number>, Map<number, number>]>();
    // items: [offset, 1, event index] or [offset, 0, close index, content name]; sorted descending
    const items: [number, number, number, string][] = [];
    for (let k = 0; k < nEv; k++) items.push([evPos[k] as number, 1, k, ""]);
    for (const c of tool.content) {
      const lst = get(closes, c);
      const hi = bisectRight(lst, last - get(tool.closeTag, c).length);
      for (let j = 0; j < hi; j++) items.push([lst[j] as number, 0, j, c]);
      suffix.set(c, [new Map(), new Map()]);
    }
    items.sort((a, b) => b[0] - a[0] || b[1] - a[1] || b[2] - a[2] || (a[3] < b[3] ? 1 : a[3] > b[3] ? -1 : 0));

    const after = (q: number): [boolean, boolean] => {
      if (q > last) return [false, false];
      const k = bisectLeft(evPos, q);
      if (!reach[k]) return [false, false];
      return [true, (clean[k] as boolean) && nonWs(text, q - start, (evPos[k] as number) - start) < 0];
    };

    for (const item of items) {
      if (item[1] === 0) {
        const [, , j, c] = item;
        const [ok, tidy] = after(get(closes, c)[j] as number + get(tool.closeTag, c).length);
        const [lastOk, lastTidy] = get(suffix, c);
        let later = lastOk.get(j + 1) ?? -1;
        lastOk.set(j, later >= 0 ? later : ok ? j : -1);
        later = lastTidy.get(j + 1) ?? -1;
        lastTidy.set(j, later >= 0 ? later : ok && tidy ? j : -1);
        continue;
      }
      const [r, , k] = item;
      const p = evKind[k] as Kind;
      if (p === CLOSE) {
        reach[k] = clean[k] = r === last;
        continue;
      }
      const s = r + get(tool.openTag, p).length;
      const lst = get(closes, p);
      const j = bisectLeft(lst, s);
      if (tool.content.has(p)) {
        const [lastOk, lastTidy] = get(suffix, p);
        let pick = lastTidy.get(j) ?? -1;
        if (pick < 0) pick = lastOk.get(j) ?? -1;
        if (pick >= 0) {
          choice.set(k, pick);
          [reach[k], clean[k]] = after(lst[pick] as number + get(tool.closeTag, p).length);
        }
      } else if (j < lst.length) {
        [reach[k], clean[k]] = after(lst[j] as number + get(tool.closeTag, p).length);
      }
    }

    const params: { [name: string]: string } = {};
    let q = this.start;
    for (;;) {
      const k = bisectLeft(evPos, q);
      const p = evKind[k] as Kind;
      if (p === CLOSE) return toolUse(tool.name, params, false);
      const s = (evPos[k] as number) + get(tool.openTag, p).length;
      const lst = get(closes, p);
      const j = tool.content.has(p) ? (choice.get(k) as number) : bisectLeft(lst, s);
      setParam(params, p, span(text, s - start, (lst[j] as number) - start));
      q = (lst[j] as number) + get(tool.closeTag, p).length;
    }
  }

  /** Nothing but whitespace and a tag still arriving after `q`. */
  private restClean(rope: Rope, q: number): boolean {
    const start = this.blankTo.get(q) ?? q;
    const m = rope.nonWs(start);
    const to = m < 0 ? rope.length : m;
    this.blankTo.set(q, to);
    this.scanned += to - start;
    if (m < 0) return true;
    if (rope.length - m >= this.tool.maxTag) return false;
    return isBlank(dropPartialTag(rope.slice(m), this.tool.strayTags));
  }

  /** Whether a run between parameters at `q` has read only whitespace and parameters up to a
   * content parameter or the end of the text. False is final. */
  private wellFormed(rope: Rope, q: number): boolean {
    const { tool, evPos, evKind, wFinal, wNext } = this;
    const path: number[] = [];
    let ok = false;
    let final = true;
    for (;;) {
      const known = wFinal.get(q);
      if (known !== undefined) {
        ok = known;
        final = true;
        break;
      }
      const nxt = wNext.get(q);
      if (nxt !== undefined) {
        path.push(q);
        q = nxt;
        continue;
      }
      final = true;
      const k = bisectLeft(evPos, q);
      if (k === evPos.length) {
        ok = this.restClean(rope, q);
        final = !ok;
      } else if (rope.nonWs(q, evPos[k] as number) >= 0) {
        ok = false;
      } else {
        const p = evKind[k] as Kind;
        ok = true;
        if (p !== CLOSE && !tool.content.has(p)) {
          const lst = get(this.closes, p);
          const j = bisectLeft(lst, (evPos[k] as number) + get(tool.openTag, p).length);
          if (j === lst.length) {
            final = false; // inside a parameter still arriving
          } else {
            const next = (lst[j] as number) + get(tool.closeTag, p).length;
            wNext.set(q, next);
            path.push(q);
            q = next;
            continue;
          }
        }
      }
      if (final) wFinal.set(q, ok);
      break;
    }
    for (const node of path) {
      if (final) wFinal.set(node, ok);
      else wNext.set(node, q);
    }
    return ok;
  }

  /** The last closing tag of content parameter `name` after `s` followed by a well-formed rest. */
  private pick(rope: Rope, name: string, s: number): number | null {
    const lst = get(this.closes, name);
    const parent = get(this.alive, name);
    for (let i = parent.length; i < lst.length; i++) parent.push(i);
    const width = get(this.tool.closeTag, name).length;
    const j0 = bisectLeft(lst, s);
    let j = find(parent, lst.length - 1);
    while (j >= j0) {
      if (this.wellFormed(rope, (lst[j] as number) + width)) return lst[j] as number;
      parent[j] = j - 1;
      j = find(parent, j - 1);
    }
    return null;
  }

  /** Parameters read between parameters from `q` up to a content parameter or a parameter still
   * arriving (returned with its value's offset), or the end. */
  private walk(rope: Rope, q: number): [Map<string, string>, [string, number] | null] {
    const { tool, evPos, evKind } = this;
    let state = this.walks.get(q);
    if (state === undefined) {
      state = [q, new Map()];
      this.walks.set(q, state);
    }
    let node = state[0];
    const params = state[1];
    let stop: [string, number] | null = null;
    for (;;) {
      const k = bisectLeft(evPos, node);
      const p = k < evPos.length ? (evKind[k] as Kind) : CLOSE;
      if (p === CLOSE) break;
      const s = (evPos[k] as number) + get(tool.openTag, p).length;
      const lst = get(this.closes, p);
      const j = bisectLeft(lst, s);
      if (tool.content.has(p) || j === lst.length) {
        stop = [p, s];
        break;
      }
      params.set(p, rope.span(s, lst[j] as number)); // a repeated parameter keeps its first place
      node = (lst[j] as number) + get(tool.closeTag, p).length;
    }
    state[0] = node;
    return [params, stop];
  }

  /** The call so far (its closing tag has not arrived).
   *
   * With `lazy` (streaming), the value still arriving is read from the text when first read, not
   * now, so a feed costs the size of its chunk however long the open value grows. */
  partial(rope: Rope, lazy = false): ToolUse {
    const tool = this.tool;
    const params: { [name: string]: string } = {};
    let q = this.start;
    for (;;) {
      const [read, stop] = this.walk(rope, q);
      for (const [k, v] of read) setParam(params, k, v);
      if (stop === null) break;
      const [p, s] = stop;
      const close = get(tool.closeTag, p);
      if (tool.content.has(p)) {
        const x = this.pick(rope, p, s);
        if (x !== null) {
          const key = `${s},${x}`;
          let value = this.spans.get(key);
          if (value === undefined) {
            value = rope.span(s, x);
            this.spans.set(key, value);
          }
          setParam(params, p, value);
          q = x + close.length;
          continue;
        }
      }
      const [lo, hi] = this.openBounds(rope, s, close);
      if (lazy) {
        let value: string | undefined;
        Object.defineProperty(params, p, { enumerable: true, configurable: true, get: () => (value ??= rope.slice(lo, hi)) });
      } else {
        setParam(params, p, rope.slice(lo, hi));
      }
      break;
    }
    return toolUse(tool.name, params, true);
  }

  /** Where the trimmed value so far of a parameter opened at `s` lies, without a trailing
   * fragment of `closeTag`; each character is scanned once over all feeds. */
  private openBounds(rope: Rope, s: number, closeTag: string): [number, number] {
    let end = rope.length;
    const tail = rope.slice(Math.max(s, end - closeTag.length + 1));
    for (let k = Math.min(closeTag.length - 1, end - s); k > 0; k--) {
      if (tail.endsWith(closeTag.slice(0, k))) {
        end -= k;
        break;
      }
    }
    let memo = this.openWs.get(s);
    if (memo === undefined) {
      memo = [s, -1, -1];
      this.openWs.set(s, memo);
    }
    let [done, first, last] = memo;
    const stable = Math.max(done, rope.length - this.tool.maxTag);
    if (stable > done) {
      this.scanned += stable - done;
      [first, last] = extendWs(rope, done, stable, first, last);
      memo[0] = stable;
      memo[1] = first;
      memo[2] = last;
    }
    this.scanned += Math.max(end - stable, 0);
    [first, last] = extendWs(rope, stable, end, first, last);
    return 0 <= first && first <= last ? [first, last + 1] : [s, s];
  }
}

/** The first and last non-whitespace indexes up to `hi`, given those (-1: none yet) up to
 * `lo`: the open-value scan extends them over [lo, hi) only. */
function extendWs(rope: Rope, lo: number, hi: number, first: number, last: number): [number, number] {
  if (first < 0) first = rope.nonWs(lo, hi);
  const kept = rope.trimEnd(lo, hi) - lo; // trimEnd is never below lo, even when hi < lo
  if (kept) last = lo + kept - 1;
  return [first, last];
}

/** Set a parameter as a Python dict would: a repeated one keeps its first place, takes the new value
 * (and "__proto__" is an own key, not the prototype). */
function setParam(params: { [name: string]: string }, name: string, value: string): void {
  put(params, name, value);
}
