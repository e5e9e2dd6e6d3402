import type { StaffCourseView } from '../../../shared/contracts/api/course-signup';
import { formatDay as formatCalendarDay } from '../../features/catalog/labels';
import { weekdayLabel } from '../../features/schedule/week';

/** "Wed 18:00" / "śr. 18:00": the course's weekly days and start time, in the screen's language. */
export function courseSchedule(
  course: Pick<StaffCourseView, 'daysOfWeek' | 'startTime'>,
  language: string,
  everyDay: string,
) {
  if (new Set(course.daysOfWeek).size === 7) return `${everyDay} ${course.startTime}`;
  const days = [...course.daysOfWeek].sort((a, b) => a - b).map((d) => weekdayLabel(d, language));
  return `${days.join(', ')} ${course.startTime}`;
}

/** "10 Jun 2026 – 24 Jun 2026" / "10.06.2026 – 24.06.2026" (open-ended: from the first day). */
export function courseDates(course: Pick<StaffCourseView, 'firstDate' | 'lastDate'>, language: string) {
  const first = formatCalendarDay(course.firstDate, language);
  return course.lastDate ? `${first} – ${formatCalendarDay(course.lastDate, language)}` : first;
}
