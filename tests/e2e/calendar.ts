/** Pointer helpers for the weekly calendar (FullCalendar) shared by the timesheet e2e tests. */
import type { Locator, Page } from "@playwright/test";

/** Scrolls the calendar so the slot at `time` (HH:mm) is at the top of its scroller. */
export async function scrollCalendarTo(page: Page, time = "08:00") {
  await page.evaluate((t) => {
    const lane = document.querySelector<HTMLElement>(`.fc-timegrid-slot-lane[data-time="${t}:00"]`);
    const scroller = lane?.closest<HTMLElement>(".fc-scroller");
    if (lane && scroller) scroller.scrollTop += lane.getBoundingClientRect().top - scroller.getBoundingClientRect().top;
  }, time);
}

/** Screen point of a time slot of a day column (a little below the slot's top line). */
export async function slot(page: Page, date: string, time: string) {
  const col = await page.locator(`.fc-timegrid-col[data-date="${date}"]`).boundingBox();
  const lane = await page.locator(`.fc-timegrid-slot-lane[data-time="${time}:00"]`).boundingBox();
  if (!col || !lane) throw new Error(`no slot ${date} ${time}`);
  return { x: col.x + col.width / 2, y: lane.y + 3 };
}

export async function drag(page: Page, from: { x: number; y: number }, to: { x: number; y: number }) {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  await page.mouse.move(from.x + 4, from.y + 4, { steps: 3 });
  await page.mouse.move(to.x, to.y, { steps: 12 });
  await page.mouse.move(to.x, to.y + 1, { steps: 2 });
  await page.mouse.up();
}

/** A point inside an event's first 15-minute slot, away from its copy icon (top right). */
export async function grip(event: Locator) {
  const box = await event.boundingBox();
  if (!box) throw new Error("event not visible");
  return { x: box.x + box.width * 0.35, y: box.y + 8 };
}

/** The centre of an element's copy icon. */
export async function copyIconOf(event: Locator) {
  const box = await event.locator(".sia-copy-icon").boundingBox();
  if (!box) throw new Error("no copy icon");
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}
