/**
 * Rails-style nested rows for a save: rows edited in a form → `<name>_attributes`, with
 * `{id, _destroy: true}` for each row the user removed.
 */
type NestedRow = Record<string, unknown> & { id?: unknown };

export function nestedAttributes(rows: NestedRow[] | undefined, previous: NestedRow[] | undefined, fields: string[]) {
  const kept = new Set((rows ?? []).map((r) => r.id).filter(Boolean));
  const removed = (previous ?? []).filter((r) => r.id && !kept.has(r.id)).map((r) => ({ id: r.id, _destroy: true }));
  const written = (rows ?? []).map((row) => {
    const out: NestedRow = row.id ? { id: row.id } : {};
    for (const field of fields) out[field] = row[field];
    return out;
  });
  return [...removed, ...written];
}

/** A form transform that moves `name` rows into `name_attributes`. */
export function withNested(name: string, fields: string[]) {
  return (data: Record<string, unknown>, options?: { previousData?: Record<string, unknown> }) => {
    const { [name]: rows, ...rest } = data;
    return {
      ...rest,
      [`${name}_attributes`]: nestedAttributes(rows as NestedRow[], options?.previousData?.[name] as NestedRow[], fields),
    };
  };
}
