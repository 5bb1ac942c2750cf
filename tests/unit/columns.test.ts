/**
 * Each list's columns are declared once (src/core/columns.ts): the server's sort whitelist, search and
 * CSV headers and the screens' sortable headers read that declaration. These check that nothing serves
 * or shows a column around it.
 */
import { createElement } from "react";
import { describe, expect, it } from "vitest";
import { resources as served } from "../../server/modules";
import { coreColumns } from "../../src/admin/common/columns";
import { resources as catalogue } from "../../src/admin/i18n/es";
import { columnsOf, listColumns, searchKeys, sortKeys } from "../../src/core/columns";

const sorted = (keys: string[]) => [...keys].sort();

describe("the declared columns", () => {
  it("declare every served resource's list, and only those", () => {
    expect(sorted(Object.keys(listColumns))).toEqual(sorted(served.map((def) => def.name)));
  });

  it.each(served.map((def) => [def.name, def] as const))("%s: the server sorts exactly the declared keys", (name, def) => {
    expect(sorted(Object.keys(def.sortable))).toEqual(sorted(sortKeys(name)));
    expect(sortKeys(name)).toContain(def.defaultSort.column);
  });

  it.each(served.map((def) => [def.name, def] as const))("%s: the search reads the declared columns", (name, def) => {
    expect(def.search?.length ?? 0).toBe(searchKeys(name).length);
  });

  it.each(served.map((def) => [def.name, def] as const))("%s: the CSV headers are the declared ones, in order", (name, def) => {
    const declared = columnsOf(name).flatMap((c) => (c.csv ? [c.csv] : []));
    const csv = def.csv;
    if (!csv || "line" in csv) expect(declared).toEqual([]);
    else expect(csv.columns.map((c) => c.header)).toEqual(declared);
  });

  it("give every column a label in the screens' catalogue", () => {
    const missing = Object.entries(listColumns).flatMap(([name, columns]) =>
      columns
        .map((c: { key: string; label?: string }) => c.label ?? c.key)
        .filter((label) => !Object.hasOwn((catalogue as Record<string, { fields?: object }>)[name]?.fields ?? {}, label))
        .map((label) => `${name}.${label}`),
    );
    expect(missing).toEqual([]);
  });
});

describe("coreColumns (the screens' list headers)", () => {
  const field = (props: Record<string, unknown>) => createElement("span", { key: String(props.source ?? props.label), ...props });

  it("offers to sort exactly the columns the core calls sortable", () => {
    const columns = coreColumns("clients", [
      field({ source: "name" }),
      field({ source: "complete_name" }), // declared, searchable but not sortable
      field({ source: "unknown", sortable: true }), // not declared: never sortable
      field({ source: "project_type_catalog_id", sortBy: "client_group_name" }),
      field({ label: "sia.something" }), // no source: left alone
    ]) as Array<{ props: Record<string, unknown> }>;
    expect(columns.map((c) => [c.props.sortable, c.props.sortBy])).toEqual([
      [true, "name"],
      [false, undefined],
      [false, undefined],
      [true, "client_group_name"],
      [undefined, undefined],
    ]);
  });

  it("reads the declaration of a screen named by its path (productCatalogs, client_group)", () => {
    for (const [screen, key] of [
      ["productCatalogs", "name"],
      ["client_group", "clients_count"],
    ] as const) {
      const [column] = coreColumns(screen, [field({ source: key })]) as Array<{ props: Record<string, unknown> }>;
      expect(column.props.sortable, screen).toBe(true);
    }
  });

  it("takes the declared label when it is not the key, unless the screen gives one", () => {
    const [declared, given] = coreColumns("clients", [
      field({ source: "client_group_name" }),
      field({ source: "client_group_name", label: "sia.own" }),
    ]) as Array<{ props: Record<string, unknown> }>;
    expect(declared?.props.label).toBe("resources.clients.fields.client_group_id");
    expect(given?.props.label).toBe("sia.own");
  });

  it("every list screen's sortable headers are the server's sortable keys", () => {
    // Every declared key, offered as a column, is sortable on screen exactly when the server sorts it.
    for (const def of served) {
      const offered = coreColumns(
        def.name,
        columnsOf(def.name).map((c) => field({ source: c.key })),
      ) as Array<{ props: { source: string; sortable: boolean } }>;
      const onScreen = offered.filter((c) => c.props.sortable).map((c) => c.props.source);
      expect(sorted(onScreen), def.name).toEqual(sorted(Object.keys(def.sortable)));
    }
  });
});
