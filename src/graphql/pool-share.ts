/**
 * What one GraphQL caller may hold of the database pool (docs/reliability.md, "One caller's share of
 * the pool"). A document's root fields run side by side, each on a pooled connection of its own, so 16
 * documents of 499 aliases took the whole pool and other callers' requests answered 503 (issue 37).
 * Now one document runs at most ROOT_FIELDS_AT_ONCE root fields at a time, and one caller (its token,
 * or its address without one) has at most DOCUMENTS_AT_ONCE documents under way on this instance; more
 * answer 429 TOO_MANY_REQUESTS with Retry-After at once. Together a caller holds at most
 * DOCUMENTS_AT_ONCE × ROOT_FIELDS_AT_ONCE connections (4 of the default 10).
 */
import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';

export const ROOT_FIELDS_AT_ONCE = 2;
export const DOCUMENTS_AT_ONCE = 2;

/** A counting semaphore: run() waits for one of `size` slots. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];
  constructor(size: number) {
    this.free = size;
  }
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await work();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/** The slots of each request's context (one GraphQL execution). */
const slotsOf = new WeakMap<object, Slots>();

/** Makes the root fields of queries and mutations of one request take turns, ROOT_FIELDS_AT_ONCE at a time. */
export function boundRootFields(schema: GraphQLSchema): GraphQLSchema {
  for (const type of [schema.getQueryType(), schema.getMutationType()]) {
    for (const field of Object.values(type?.getFields() ?? {})) {
      const resolve: GraphQLFieldResolver<unknown, object> = field.resolve ?? defaultFieldResolver;
      field.resolve = (source, args, context, info) => {
        let slots = slotsOf.get(context);
        if (!slots) {
          slots = new Slots(ROOT_FIELDS_AT_ONCE);
          slotsOf.set(context, slots);
        }
        return slots.run(async () => resolve(source, args, context, info));
      };
    }
  }
  return schema;
}

/** Documents under way per caller on this instance. */
export class CallerDocuments {
  private readonly underWay = new Map<string, number>();

  /** Takes a slot for the caller: false when the caller has DOCUMENTS_AT_ONCE under way already. */
  take(caller: string): boolean {
    const count = this.underWay.get(caller) ?? 0;
    if (count >= DOCUMENTS_AT_ONCE) return false;
    this.underWay.set(caller, count + 1);
    return true;
  }

  release(caller: string): void {
    const count = (this.underWay.get(caller) ?? 1) - 1;
    if (count <= 0) this.underWay.delete(caller);
    else this.underWay.set(caller, count);
  }
}
