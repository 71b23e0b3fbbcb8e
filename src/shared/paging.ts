import { z } from 'zod';
import { AppError } from './errors.js';
import { FormatSchema } from './format.js';
import { filterText } from './input-limits.js';
import { queryBoolean } from './query.js';

/** Query parameters every list call accepts. */
export const listQueryShape = {
  size: z.number().int().min(1).optional().describe('page size (default 20, capped at MAX_PAGE_SIZE)'),
  page: z.number().int().min(0).default(0).describe('0-based page number'),
  sort: filterText().optional().describe('attribute with optional direction: name, name,ASC, name,DESC'),
  format: FormatSchema,
  'include-deleted': queryBoolean()
    .default(false)
    .describe('include soft-deleted objects; honoured for system and client administrators only'),
  name: filterText().optional().describe('starts with, ignoring case'),
  'name-eq': filterText().optional().describe('equals, ignoring case'),
};
export const ListQuerySchema = z.object(listQueryShape);
export type ListQuery = z.infer<typeof ListQuerySchema>;

/** The Page object of the spec. */
export const pageSchema = <T extends z.ZodType>(item: T) =>
  z.object({
    content: z.array(item),
    last: z.boolean(),
    first: z.boolean(),
    totalElements: z.number().int(),
    totalPages: z.number().int(),
    sort: z.string().nullable(),
    numberOfElements: z.number().int(),
    size: z.number().int(),
    number: z.number().int(),
  });

export interface PageRequest {
  size: number;
  page: number;
  offset: number;
}

/** Resolves size (default 20, capped) and page into limit/offset. */
export function pageRequest(query: Pick<ListQuery, 'size' | 'page'>, maxPageSize: number): PageRequest {
  const size = Math.min(query.size ?? 20, maxPageSize);
  const page = query.page ?? 0;
  return { size, page, offset: size * page };
}

export function toPage<T>(content: T[], total: number, request: PageRequest, sort: string | null) {
  const totalPages = Math.ceil(total / request.size);
  return {
    content,
    last: request.page >= totalPages - 1,
    first: request.page === 0,
    totalElements: total,
    totalPages,
    sort,
    numberOfElements: content.length,
    size: request.size,
    number: request.page,
  };
}

export type SortDirection = 'ASC' | 'DESC';
export interface ParsedSort<P extends string> {
  property: P;
  direction: SortDirection;
  /** As echoed in the Page object, e.g. `name,ASC`. */
  label: string;
}

/**
 * Parses `attr[,ASC|DESC]` against a resource's sortable attributes (API name to entity property).
 * An unknown attribute or direction is a 400, so a typo never silently returns another order.
 */
export function parseSort<P extends string>(
  sort: string | undefined,
  sortable: Record<string, P>,
  fallback: P,
): ParsedSort<P> {
  if (!sort) return { property: fallback, direction: 'ASC', label: `${fallback},ASC` };
  const [attribute = '', rawDirection = 'ASC'] = sort.split(',').map((part) => part.trim());
  // Own attributes only: `__proto__` or `toString` must not find Object.prototype's members.
  const property = Object.hasOwn(sortable, attribute) ? sortable[attribute] : undefined;
  if (!property) {
    throw new AppError(
      'BAD_REQUEST',
      `Cannot sort by "${attribute}"; sortable attributes: ${Object.keys(sortable).join(', ')}`,
    );
  }
  const direction = rawDirection.toUpperCase();
  if (direction !== 'ASC' && direction !== 'DESC') {
    throw new AppError('BAD_REQUEST', `Sort direction must be ASC or DESC, not "${rawDirection}"`);
  }
  return { property, direction, label: `${attribute},${direction}` };
}

/** Escapes LIKE wildcards so user input only ever matches literally. */
export const likePrefix = (value: string): string => `${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
