import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { DateTime } from 'luxon';
import { DomainError } from '../../common/errors/domain-error';
import { PageRefusal } from './page-requests';
import { formatCents } from '../../common/money/money';
import { type Account, AccountDirectory } from '../accounts';
import { type CheckedOccurrence, CheckSeriesQuery, CheckSeriesRequest } from '../appointments';
import {
  AvailableDatesQuery,
  AvailableDatesWithTimesQuery,
  AvailableTimesQuery,
  type DatesWithTimes,
} from '../availability';
import {
  type AddonView,
  type AppointmentTypeView,
  type CalendarView,
  GetAppointmentTypeQuery,
  ListAddonsQuery,
  ListAppointmentTypesQuery,
  ListCalendarsQuery,
  type RecurrenceSettings,
} from '../catalog';
import { type FormView, ListFormsQuery } from '../forms';
import { isShownOnPage } from './page-errors';
import type { Choices } from './scheduling-choices';

/** What the page reads of the chosen type. */
export type ChosenType = Pick<
  AppointmentTypeView,
  'id' | 'name' | 'duration' | 'price' | 'calendarIDs' | 'addonIDs' | 'formIDs'
>;

/** Everything the scheduling page shows at the step the choices have reached. */
export interface SchedulingModel {
  account: Account;
  /** The types to choose from (none once one is chosen). */
  types: AppointmentTypeView[];
  type?: ChosenType;
  /** The type's calendars, read when the client may choose one or the zone is theirs. */
  calendars: CalendarView[];
  addons: AddonView[];
  /** The zone dates and times are shown in. */
  zone: string;
  month: string;
  /** Available dates of the month (`YYYY-MM-DD`), once a type is chosen. */
  dates: string[];
  /** Available times of the date, once a date is chosen. */
  times?: string[];
  /** The visible forms of the type, once a time is chosen. */
  forms: FormView[];
  /** Whether the type asks the client's permission for SMS (details step). */
  asksSmsOptIn: boolean;
  /** What availability refused (a date out of range, …), shown by the date list. */
  problem?: string;
  /** The series the type offers (details step; none: the page offers no "repeat"). */
  recurrence?: RecurrenceSettings;
  /** The series asked for (`repeat`), each occurrence as the booking would check it now. */
  series?: CheckedOccurrence[];
  /** Why the series asked for cannot be checked at all (a count past the type's, …). */
  seriesProblem?: string;
}

const modelOf = (account: Account, zone: string, month: string): SchedulingModel => ({
  account,
  types: [],
  calendars: [],
  addons: [],
  zone,
  month,
  dates: [],
  forms: [],
  asksSmsOptIn: false,
});

/** The scheduling page's data: the same services and queries the API's routes use. */
@Injectable()
export class SchedulingModels {
  constructor(
    private readonly accounts: AccountDirectory,
    private readonly queries: QueryBus,
  ) {}

  async account(accountId: number): Promise<Account> {
    const account = await this.accounts.find(accountId);
    if (!account) throw new PageRefusal(404, 'page.noSchedule');
    return account;
  }

  async build(
    account: Account,
    choices: Choices,
    options: { timesOnly?: boolean; now?: number } = {},
  ): Promise<SchedulingModel> {
    const now = options.now ?? Date.now();
    const step = options.timesOnly ? undefined : await this.dateStep(account, choices, now);
    if (step) return step;
    const allTypes = await this.queries.execute(new ListAppointmentTypesQuery(account.id));
    const live = allTypes.filter((t) => t.active && t.calendarIDs.length > 0);
    // Private types only through a link that names them.
    const named = live.filter((t) => choices.typeIds.includes(t.id));
    const type = choices.typeIds.length === 1 ? named[0] : undefined;
    const model = modelOf(account, choices.timezone ?? account.timezone, choices.month ?? '');
    if (!type) {
      model.types = choices.typeIds.length > 0 ? named : live.filter((t) => !t.private);
      return model;
    }
    model.type = type;
    await this.readLinks(model, choices);
    const calendarID = type.calendarIDs.find((id) => id === choices.calendarId);
    const calendar = model.calendars.find((c) => c.id === calendarID) ?? model.calendars[0];
    model.zone = choices.timezone ?? calendar?.timezone ?? model.zone;
    model.month =
      choices.month ??
      (choices.date ?? DateTime.fromMillis(now, { zone: model.zone }).toISODate()!).slice(0, 7);
    const query = {
      appointmentTypeID: type.id,
      calendarID,
      timezone: model.zone,
      addonIDs: choices.addonIds.filter((id) => model.addons.some((a) => a.id === id)),
    };
    try {
      if (choices.datetime) {
        const [forms, details] = await Promise.all([
          this.queries.execute(new ListFormsQuery(account.id)),
          this.queries.execute(new GetAppointmentTypeQuery(account.id, type.id)),
        ]);
        model.forms = forms.filter((f) => !f.hidden && type.formIDs.includes(f.id));
        model.asksSmsOptIn = details.requireSmsOptIn;
        model.recurrence = details.recurrence;
        if (choices.repeat && model.recurrence) await this.checkSeries(model, choices, query);
        return model;
      }
      const month = { ...query, month: model.month };
      if (choices.date && !options.timesOnly) {
        // The month's dates and the chosen day's times from one read of the data.
        const { dates, times } = await this.queries.execute(
          new AvailableDatesWithTimesQuery(account, { ...month, date: choices.date }, now),
        );
        model.dates = dates.map((d) => d.date);
        model.times = times.map((t) => t.time);
        return model;
      }
      const [dates, times] = await Promise.all([
        // The script asks for the time list alone: it has the dates already.
        options.timesOnly ? [] : this.queries.execute(new AvailableDatesQuery(account, month, now)),
        choices.date
          ? this.queries.execute(
              new AvailableTimesQuery(account, { ...query, date: choices.date }, now),
            )
          : undefined,
      ]);
      model.dates = dates.map((d) => d.date);
      model.times = times?.map((t) => t.time);
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      model.problem = e.message;
    }
    return model;
  }

  /**
   * The date step of a type named alone, with a date, in a zone the client chose (the page the
   * script loads, and its link): the type, its calendars and addons come with the month's dates
   * and the day's times in one read (AvailableDatesWithTimesQuery), where `build` reads the
   * account's types first. Undefined for another step, a type the page does not offer as it is
   * named (deleted, inactive, without a calendar, another account's), or what availability refuses:
   * `build` then reads the step as it always does, and says what the page says of it.
   */
  private async dateStep(
    account: Account,
    choices: Choices,
    now: number,
  ): Promise<SchedulingModel | undefined> {
    const { typeIds, timezone, date } = choices;
    if (typeIds.length !== 1 || !timezone || !date || choices.datetime) return undefined;
    // A calendar or addons chosen are checked against the type's first (see build).
    if (choices.calendarId !== undefined || choices.addonIds.length > 0) return undefined;
    const month = choices.month ?? date.slice(0, 7);
    const request = { appointmentTypeID: typeIds[0], timezone, addonIDs: [], month, date };
    let read: DatesWithTimes;
    try {
      read = await this.queries.execute(new AvailableDatesWithTimesQuery(account, request, now));
    } catch (e) {
      // What availability refuses (an unknown type, a date it does not take): `build` says it.
      if (e instanceof DomainError) return undefined;
      throw e;
    }
    if (!read.type.active || read.calendarIds.length === 0) return undefined;
    const model = modelOf(account, timezone, month);
    model.type = {
      id: read.type.id,
      name: read.type.name,
      duration: read.type.duration,
      price: formatCents(read.type.priceCents),
      calendarIDs: read.calendarIds,
      addonIDs: read.addonIds,
      // Read with the details step's forms (build).
      formIDs: [],
    };
    await this.readLinks(model, choices);
    model.dates = read.dates.map((d) => d.date);
    model.times = read.times.map((t) => t.time);
    return model;
  }

  /**
   * The series asked for, checked as `POST /availability/check-series` checks it (the client's
   * own hold on the first time counting as theirs): the dates shown before the client confirms.
   */
  private async checkSeries(
    model: SchedulingModel,
    choices: Choices,
    query: { appointmentTypeID: number; calendarID?: number; timezone: string; addonIDs: number[] },
  ): Promise<void> {
    const request = Object.assign(new CheckSeriesRequest(), {
      ...query,
      datetime: choices.datetime,
      recurrence: { frequency: choices.repeat!.frequency, count: choices.repeat!.count },
      holdToken: choices.hold,
    });
    try {
      model.series = await this.queries.execute(new CheckSeriesQuery(model.account, request));
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      model.seriesProblem = e.message;
    }
  }

  /**
   * The chosen type's calendars and addons the page shows. Its calendars' names are shown only when
   * there are several; their zones serve only when the client has chosen none. Otherwise they are
   * not read: most pages are neither.
   */
  private async readLinks(model: SchedulingModel, choices: Choices): Promise<void> {
    const type = model.type!;
    if (type.calendarIDs.length > 1 || !choices.timezone)
      model.calendars = (
        await this.queries.execute(new ListCalendarsQuery(model.account.id))
      ).filter((c) => type.calendarIDs.includes(c.id));
    if (type.addonIDs.length)
      model.addons = (await this.queries.execute(new ListAddonsQuery(model.account.id))).filter(
        (a) => type.addonIDs.includes(a.id) && !a.private,
      );
  }

  /**
   * The time list alone, as the page's script asks for it (the zone in its query): the times of
   * `GET /availability/times` and nothing else read. Without a zone, the whole model's.
   */
  async timeList(account: Account, choices: Choices): Promise<SchedulingModel> {
    const { timezone, date } = choices;
    if (!timezone || !date) return this.build(account, choices, { timesOnly: true });
    const model = modelOf(account, timezone, date.slice(0, 7));
    const request = {
      appointmentTypeID: choices.typeIds[0],
      calendarID: choices.calendarId,
      timezone,
      addonIDs: choices.addonIds,
      date,
    };
    try {
      model.times = (await this.queries.execute(new AvailableTimesQuery(account, request))).map(
        (t) => t.time,
      );
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      model.times = [];
      model.problem = e.message;
    }
    return model;
  }
}
