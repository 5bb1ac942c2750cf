/** Calendar files written in tests: one VCALENDAR with the given VEVENTs (CRLF), and instants in Mexico City. */
import { weekOf, zonedTime } from "../../src/core/week";

/** The week most reader tests read (a Monday with no holiday or time change near it). */
export const ICS_TEST_WEEK = "2031-03-03";
export const icsTestWeek = weekOf(ICS_TEST_WEEK);

/** The instant of a Mexico City wall-clock time, as ISO text. */
export const at = (date: string, time: string) => {
  const [h, m] = time.split(":").map(Number);
  return zonedTime(date, h * 60 + m).toISOString();
};

/** A calendar file holding one VEVENT per list of content lines. */
export const vcalendar = (...events: string[][]) =>
  [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//Prueba//ES",
    ...events.flatMap((e) => ["BEGIN:VEVENT", ...e, "END:VEVENT"]),
    "END:VCALENDAR",
    "",
  ].join("\r\n");
