import { StudioScopedModel } from '../../db/base.model';
import type { ScheduleEventStatus } from '../../../../shared/domain/schedule';

/**
 * The recurring definition of a class: weekdays, the studio's wall-clock start time, a date range,
 * room, instructors, sizes and booking rules. Its events are generated from it (schedule-events.service).
 */
export class ScheduleMeta extends StudioScopedModel {
  static override tableName = 'schedule_metas';
  classServiceId!: string;
  locationId!: string;
  roomId!: string | null;
  instructorIds!: string[];
  daysOfWeek!: number[];
  startTime!: string;
  durationMinutes!: number;
  firstDate!: string;
  lastDate!: string | null;
  capacity!: number;
  waitingListSize!: number;
  bookingOpensHours!: number | null;
  bookingClosesMinutes!: number;
  cancellationCutoffMinutes!: number;
  bookableOnline!: boolean;
  bookingAccessibility!: number;
  bookingTagIds!: string[];
  experienceLevelId!: string | null;
}

/** One dated class on the timetable, generated from a meta (or, in the demo's past, on its own). */
export class ScheduleEvent extends StudioScopedModel {
  static override tableName = 'schedule_events';
  scheduleMetaId!: string | null;
  occurrenceDate!: string | null;
  classServiceId!: string;
  locationId!: string;
  roomId!: string | null;
  instructorId!: string | null;
  instructorIds!: string[];
  startsAt!: Date;
  endsAt!: Date;
  capacity!: number;
  waitingListSize!: number;
  status!: ScheduleEventStatus;
  isHidden!: boolean;
  bookableOnline!: boolean;
  livestreamUrl!: string | null;
  notes!: string;
  editedAt!: Date | null;
  cancelledAt!: Date | null;
  removedAt!: Date | null;
}
