import { describe, expect, it } from "vitest";
import { pageWindow } from "../../src/admin/common/SiaPagination";

describe("pager window of 10 pages", () => {
  it.each([
    [1, 3, [1, 2, 3]],
    [1, 25, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]],
    [6, 25, [2, 3, 4, 5, 6, 7, 8, 9, 10, 11]],
    [12, 25, [8, 9, 10, 11, 12, 13, 14, 15, 16, 17]],
    [25, 25, [16, 17, 18, 19, 20, 21, 22, 23, 24, 25]],
    [1, 0, []],
  ])("page %i of %i", (page, pages, expected) => {
    expect(pageWindow(page, pages)).toEqual(expected);
  });
});
