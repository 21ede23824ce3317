import { Injectable } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { DateTime } from 'luxon';
import { DomainError, NotFoundError } from '../../common/errors/domain-error';
import { type Account, AccountDirectory } from '../accounts';
import { AvailableDatesQuery, AvailableTimesQuery } from '../availability';
import {
  type AddonView,
  type AppointmentTypeView,
  type CalendarView,
  GetAppointmentTypeQuery,
  ListAddonsQuery,
  ListAppointmentTypesQuery,
  ListCalendarsQuery,
} from '../catalog';
import { type FormView, ListFormsQuery } from '../forms';
import type { Choices } from './scheduling-choices';

/** Everything the scheduling page shows at the step the choices have reached. */
export interface SchedulingModel {
  account: Account;
  /** The types to choose from (none once one is chosen). */
  types: AppointmentTypeView[];
  type?: AppointmentTypeView;
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
}

/** The scheduling page's data: the same services and queries the API's routes use. */
@Injectable()
export class SchedulingModels {
  constructor(
    private readonly accounts: AccountDirectory,
    private readonly queries: QueryBus,
  ) {}

  async account(accountId: number): Promise<Account> {
    const account = await this.accounts.find(accountId);
    if (!account) throw new NotFoundError('This scheduling page does not exist.');
    return account;
  }

  async build(
    account: Account,
    choices: Choices,
    options: { timesOnly?: boolean; now?: number } = {},
  ): Promise<SchedulingModel> {
    const now = options.now ?? Date.now();
    const [allTypes, allCalendars] = await Promise.all([
      this.queries.execute(new ListAppointmentTypesQuery(account.id)),
      this.queries.execute(new ListCalendarsQuery(account.id)),
    ]);
    const live = allTypes.filter((t) => t.active && t.calendarIDs.length > 0);
    // Private types only through a link that names them.
    const named = live.filter((t) => choices.typeIds.includes(t.id));
    const offered = choices.typeIds.length > 0 ? named : live.filter((t) => !t.private);
    const type = choices.typeIds.length === 1 ? named[0] : undefined;
    const base: SchedulingModel = {
      account,
      types: type ? [] : offered,
      type,
      calendars: [],
      addons: [],
      zone: choices.timezone ?? account.timezone,
      month: choices.month ?? '',
      dates: [],
      forms: [],
      asksSmsOptIn: false,
    };
    if (!type) return base;
    const calendars = allCalendars.filter((c) => type.calendarIDs.includes(c.id));
    const calendar = calendars.find((c) => c.id === choices.calendarId);
    const zone = choices.timezone ?? calendar?.timezone ?? calendars[0]?.timezone ?? base.zone;
    const month =
      choices.month ??
      (choices.date ?? DateTime.fromMillis(now, { zone }).toISODate()!).slice(0, 7);
    const addons = type.addonIDs.length
      ? (await this.queries.execute(new ListAddonsQuery(account.id))).filter(
          (a) => type.addonIDs.includes(a.id) && !a.private,
        )
      : [];
    const query = {
      appointmentTypeID: type.id,
      calendarID: calendar?.id,
      timezone: zone,
      addonIDs: choices.addonIds.filter((id) => addons.some((a) => a.id === id)),
    };
    const model: SchedulingModel = { ...base, calendars, addons, zone, month };
    try {
      if (choices.datetime) {
        const [forms, details] = await Promise.all([
          this.queries.execute(new ListFormsQuery(account.id)),
          this.queries.execute(new GetAppointmentTypeQuery(account.id, type.id)),
        ]);
        model.forms = forms.filter((f) => !f.hidden && type.formIDs.includes(f.id));
        model.asksSmsOptIn = details.requireSmsOptIn;
        return model;
      }
      const [dates, times] = await Promise.all([
        // The script asks for the time list alone: it has the dates already.
        options.timesOnly
          ? []
          : this.queries.execute(new AvailableDatesQuery(account, { ...query, month }, now)),
        choices.date
          ? this.queries.execute(
              new AvailableTimesQuery(account, { ...query, date: choices.date }, now),
            )
          : undefined,
      ]);
      model.dates = dates.map((d) => d.date);
      model.times = times?.map((t) => t.time);
    } catch (e) {
      if (!(e instanceof DomainError) || e.status >= 500) throw e;
      model.problem = e.message;
    }
    return model;
  }

  /**
   * The time list alone, as the page's script asks for it (the zone in its query): the times of
   * `GET /availability/times` and nothing else read. Without a zone, the whole model's.
   */
  async timeList(account: Account, choices: Choices): Promise<SchedulingModel> {
    const [typeId] = choices.typeIds;
    if (!choices.timezone || !choices.date)
      return this.build(account, choices, { timesOnly: true });
    const model: SchedulingModel = {
      account,
      types: [],
      calendars: [],
      addons: [],
      zone: choices.timezone,
      month: choices.date.slice(0, 7),
      dates: [],
      forms: [],
      asksSmsOptIn: false,
    };
    try {
      const times = await this.queries.execute(
        new AvailableTimesQuery(account, {
          appointmentTypeID: typeId,
          calendarID: choices.calendarId,
          timezone: choices.timezone,
          addonIDs: choices.addonIds,
          date: choices.date,
        }),
      );
      model.times = times.map((t) => t.time);
    } catch (e) {
      if (!(e instanceof DomainError) || e.status >= 500) throw e;
      model.times = [];
      model.problem = e.message;
    }
    return model;
  }
}
