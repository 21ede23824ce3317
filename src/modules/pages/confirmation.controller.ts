import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AccountEpochs } from '../../common/database/account-epochs';
import { DateTime } from 'luxon';
import { Public } from '../../common/http/public.decorator';
import { isCalendarDate, isCalendarMonth } from '../../common/time/calendar-dates';
import { isValidTimezone } from '../../common/time/zones';
import { AppConfig } from '../../config/app-config';
import { type Account, AccountDirectory } from '../accounts';
import {
  FindAppointmentQuery,
  RenderAppointmentQuery,
  type AppointmentView,
  CancelAppointmentCommand,
  CancelAppointmentRequest,
  CancelSeriesCommand,
  GetSeriesQuery,
  RescheduleAppointmentCommand,
  RescheduleAppointmentRequest,
  claimedAppointmentId,
  tokenMatches,
} from '../appointments';
import { type Appointment, AvailableDatesQuery, AvailableTimesQuery } from '../availability';
import {
  type CalendarEvent,
  calendarFile,
  googleCalendarLink,
  outlookCalendarLink,
} from './calendar-file';
import { type Done, confirmationPage, reschedulePage } from './confirmation-page';
import { KeptConfirmations } from './kept-confirmations';
import type { PageLook } from './layout';
import { type PageError, isShownOnPage, pageErrorOf } from './page-errors';
import { PageRefusal, formOf, languageOf } from './page-requests';
import { frameOf, lookOf } from './page-look';
import { type Language, messagesOf } from '../../common/i18n';
import { PageCsrf, sendPage, sendRedirect } from './page-security';
import { PagesFilter } from './pages.filter';

const DONE = new Set<unknown>(['booked', 'rescheduled', 'canceled', 'series-canceled']);

/** An appointment's page, opened by its token: the row, its account and its view. */
interface Opened {
  token: string;
  path: string;
  appointment: Appointment;
  account: Account;
  view: AppointmentView;
}

interface CalendarLinks {
  accountName: string;
  google: string;
  outlook: string;
}

/**
 * The confirmation page, `/confirmation/{token}`: the appointment, its calendar file and links,
 * and (exactly when `canClientCancel`/`canClientReschedule` allow it) cancel and reschedule, through
 * the API's own commands in client mode.
 */
@ApiExcludeController()
@Public()
@UseFilters(PagesFilter)
@Controller('confirmation')
export class ConfirmationController {
  private readonly secret: string;
  private readonly publicUrl: string;
  private readonly confirmations: KeptConfirmations;
  private readonly calendarLinks = new WeakMap<Appointment, CalendarLinks>();

  constructor(
    private readonly accounts: AccountDirectory,
    private readonly queryBus: QueryBus,
    private readonly commands: CommandBus,
    private readonly csrf: PageCsrf,
    private readonly epochs: AccountEpochs,
    config: AppConfig,
  ) {
    this.secret = config.secret;
    this.publicUrl = config.http.publicUrl;
    this.confirmations = new KeptConfirmations(config.availability.cacheTtlMs);
  }

  @Get(':token')
  async show(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const opened = await this.open(req);
    const done = (req.query as Record<string, unknown>).done;
    const look = this.look(req, opened, undefined, true);
    await this.page(req, reply, opened, look, 200, [], DONE.has(done) ? (done as Done) : undefined);
  }

  /** Every occurrence of the appointment's series still to come, canceled (the client's rules). */
  @Post(':token/cancel-series')
  async cancelSeries(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const opened = await this.open(req, true);
    const form = formOf(req);
    const look = this.look(req, opened, form);
    if (!this.csrf.verify(req, form, scopeOf(opened)))
      return this.page(req, reply, opened, look, 403, [
        { place: 'form', message: messagesOf(look.lang)('error.formExpired') },
      ]);
    const seriesId = opened.view.seriesID;
    if (seriesId === undefined) return sendRedirect(reply, opened.path, this.frame(opened));
    await this.commands.execute(
      new CancelSeriesCommand(opened.account, seriesId, new CancelAppointmentRequest(), {
        admin: false,
        noEmail: false,
      }),
    );
    sendRedirect(reply, this.after(opened, look, 'series-canceled'), this.frame(opened));
  }

  @Post(':token/cancel')
  async cancel(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const opened = await this.open(req, true);
    const form = formOf(req);
    const look = this.look(req, opened, form);
    if (!this.csrf.verify(req, form, scopeOf(opened)))
      return this.page(req, reply, opened, look, 403, [
        { place: 'form', message: messagesOf(look.lang)('error.formExpired') },
      ]);
    try {
      await this.commands.execute(
        new CancelAppointmentCommand(
          opened.account,
          opened.appointment.id,
          new CancelAppointmentRequest(),
          { admin: false, noEmail: false },
        ),
      );
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      return this.page(req, reply, await this.open(req, true), look, 400, [
        { place: 'form', message: e.message },
      ]);
    }
    sendRedirect(reply, this.after(opened, look, 'canceled'), this.frame(opened));
  }

  @Get(':token/reschedule')
  async chooseTime(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const opened = await this.open(req);
    if (!opened.view.canClientReschedule)
      return sendRedirect(reply, opened.path, this.frame(opened));
    const look = this.look(req, opened, undefined, true);
    const query = req.query as Record<string, unknown>;
    await this.reschedulePage(req, reply, opened, look, query, 200, []);
  }

  @Post(':token/reschedule')
  async reschedule(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const opened = await this.open(req, true);
    const form = formOf(req);
    const fields = { datetime: form.get('datetime') ?? '', timezone: form.get('timezone') ?? '' };
    const look = this.look(req, opened, form);
    if (!this.csrf.verify(req, form, scopeOf(opened)))
      return this.reschedulePage(req, reply, opened, look, fields, 403, [
        { place: 'form', message: messagesOf(look.lang)('error.formExpired') },
      ]);
    const request = Object.assign(new RescheduleAppointmentRequest(), {
      datetime: fields.datetime,
      timezone: isValidTimezone(fields.timezone) ? fields.timezone : undefined,
    });
    try {
      await this.commands.execute(
        new RescheduleAppointmentCommand(opened.account, opened.appointment.id, request, {
          admin: false,
          noEmail: false,
        }),
      );
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      const error = pageErrorOf(e, look.lang);
      const date = DateTime.fromISO(fields.datetime, { setZone: true });
      const query = { ...fields, date: date.isValid ? date.toISODate() : undefined };
      const status = error.place === 'time' ? 409 : 400;
      return this.reschedulePage(req, reply, opened, look, query, status, [error]);
    }
    sendRedirect(reply, this.after(opened, look, 'rescheduled'), this.frame(opened));
  }

  @Get(':token/appointment.ics')
  async ics(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const opened = await this.open(req);
    void reply
      .headers({
        'content-type': 'text/calendar; charset=utf-8',
        'content-disposition': 'attachment; filename="appointment.ics"',
        'cache-control': 'no-store',
        'x-robots-tag': 'noindex, nofollow',
      })
      .send(calendarFile(this.event(opened)));
  }

  /**
   * The appointment its link names, with its account and view. A GET may serve what this process
   * kept of it (KeptConfirmations: nothing written for the account since); a form's POST reads it
   * afresh (`fresh`), as does a page drawn again after a refused change.
   */
  private async open(req: FastifyRequest, fresh = false): Promise<Opened> {
    const token = (req.params as Record<string, string | undefined>).token ?? '';
    const id = claimedAppointmentId(token);
    if (id === undefined) throw new PageRefusal(404, 'page.badLink');
    const known = fresh ? undefined : this.confirmations.accountOf(id);
    // The epoch before the row (AccountEpochs): a write committed after this read has replaced it.
    const epoch = known === undefined ? undefined : await this.epochs.current(known);
    const now = Date.now();
    if (epoch !== undefined) {
      const account = await this.accounts.find(known!);
      const kept =
        account && this.confirmations.get(id, token, epoch, now, account.clientChangeMinHours);
      if (kept) return { token, path: `/confirmation/${token}`, account, ...kept };
    }
    const appointment = await this.queryBus.execute(new FindAppointmentQuery(id));
    if (!appointment || !tokenMatches(this.secret, token, appointment))
      throw new PageRefusal(404, 'page.badLink');
    const account = await this.accounts.find(appointment.accountId);
    if (!account) throw new PageRefusal(404, 'page.badLink');
    const view = await this.queryBus.execute(new RenderAppointmentQuery(appointment));
    this.confirmations.keep({ appointment, view }, token, epoch, now);
    return { token, path: `/confirmation/${token}`, appointment, account, view };
  }

  /**
   * The "add to Google / Outlook" links, made once per row read: a kept row (KeptConfirmations)
   * serves them again while the account's name they mention is the same.
   */
  private linksOf(opened: Opened): CalendarLinks {
    const made = this.calendarLinks.get(opened.appointment);
    if (made?.accountName === opened.account.name) return made;
    const event = this.event(opened);
    const links = {
      accountName: opened.account.name,
      google: googleCalendarLink(event),
      outlook: outlookCalendarLink(event),
    };
    this.calendarLinks.set(opened.appointment, links);
    return links;
  }

  /** The page after a change: what was done, in the language the form was in if not its own. */
  private after(opened: Opened, look: PageLook, done: Done): string {
    const own = this.ownLanguage(opened);
    return `${opened.path}?done=${done}${look.lang === own ? '' : `&lang=${look.lang}`}`;
  }

  /** The language the appointment's page speaks unless asked otherwise. */
  private ownLanguage(opened: Opened): Language {
    return opened.appointment.language ?? opened.account.language;
  }

  private frame(opened: Opened) {
    return frameOf(opened.account);
  }

  /**
   * The page's look, in the language the client booked in (kept on the appointment) unless the
   * link or form asks for another (`lang`); an appointment booked through the API has none: the
   * browser's, else the account's.
   */
  private look(req: FastifyRequest, opened: Opened, form?: URLSearchParams, get = false): PageLook {
    // A GET page links to itself in other languages: the appointment's page (the reschedule page
    // puts its own accepted month, zone and date); a form's answer links nowhere.
    const booked = opened.appointment.language;
    const lang = booked
      ? languageOf(req, booked, form, false)
      : languageOf(req, opened.account.language, form);
    return lookOf(opened.account, lang, get ? opened.path : undefined);
  }

  private event(o: Opened): CalendarEvent {
    const v = o.view;
    return {
      appointmentId: v.id,
      publicUrl: this.publicUrl,
      sequence: o.appointment.sequence,
      start: o.appointment.startsAt,
      end: o.appointment.endsAt,
      updatedAt: o.appointment.updatedAt,
      timezone: v.calendarTimezone,
      summary: `${v.type} with ${v.calendar}`,
      location: v.location,
      description: `${v.type} (${v.duration} minutes) booked with ${o.account.name}.`,
      url: `${new URL(v.confirmationPage).origin}${o.path}`,
      canceled: v.canceled,
    };
  }

  private async page(
    req: FastifyRequest,
    reply: FastifyReply,
    opened: Opened,
    look: PageLook,
    status: number,
    errors: PageError[],
    done?: Done,
  ): Promise<void> {
    // A series' occurrences, read for its pages only (the kept row serves the rest).
    const seriesId = opened.view.seriesID;
    const series =
      seriesId === undefined
        ? undefined
        : await this.queryBus.execute(new GetSeriesQuery(opened.account.id, seriesId));
    const { nonce, cookie } = this.csrf.nonceOf(req);
    const v = opened.view;
    const again = new URLSearchParams({
      appointmentType: String(v.appointmentTypeID),
      firstName: v.firstName,
      lastName: v.lastName,
      email: v.email,
    });
    if (look.lang !== opened.account.language) again.set('lang', look.lang);
    const page = confirmationPage({
      view: v,
      look,
      start: opened.appointment.startsAt,
      currency: opened.account.currency,
      path: opened.path,
      csrf: this.csrf.token(nonce, scopeOf(opened)),
      links: this.linksOf(opened),
      bookAgain: `/schedule/${opened.account.id}?${again.toString()}`,
      langQuery: this.ownLanguage(opened) === look.lang ? '' : `?lang=${look.lang}`,
      done,
      errors,
      series: series?.appointments,
    });
    sendPage(reply, status, page, { cookie, ...this.frame(opened) });
  }

  private async reschedulePage(
    req: FastifyRequest,
    reply: FastifyReply,
    opened: Opened,
    look: PageLook,
    query: Record<string, unknown>,
    status: number,
    errors: PageError[],
  ): Promise<void> {
    const v = opened.view;
    const asked = typeof query.timezone === 'string' ? query.timezone : '';
    const zone = isValidTimezone(asked) ? asked : v.timezone;
    // A date or month no calendar has, or of a year the service does not take, is not a choice (as
    // on the scheduling page: readChoices). Without a month, the date's, else the appointment's
    // own: a new time is most often near the old one.
    const date = isCalendarDate(query.date) ? query.date : undefined;
    const near = date ?? DateTime.fromISO(v.datetime, { setZone: true }).setZone(zone).toISODate()!;
    const month = isCalendarMonth(query.month) ? query.month : near.slice(0, 7);
    const slot = {
      appointmentTypeID: v.appointmentTypeID,
      calendarID: v.calendarID,
      timezone: zone,
      addonIDs: v.addonIDs,
    };
    let dates: string[] = [];
    let times: string[] | undefined;
    try {
      const [d, t] = await Promise.all([
        this.queryBus.execute(new AvailableDatesQuery(opened.account, { ...slot, month })),
        date
          ? this.queryBus.execute(
              new AvailableTimesQuery(opened.account, {
                ...slot,
                date,
                ignoreAppointmentIDs: [v.id],
              }),
            )
          : undefined,
      ]);
      dates = d.map((x) => x.date);
      times = t?.map((x) => x.time);
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      errors = [...errors, { place: 'form', message: e.message }];
    }
    const { nonce, cookie } = this.csrf.nonceOf(req);
    const page = reschedulePage({
      view: v,
      look,
      firstDay: opened.account.firstDayOfWeek,
      path: opened.path,
      csrf: this.csrf.token(nonce, scopeOf(opened)),
      zone,
      month,
      dates,
      date,
      times,
      errors,
    });
    sendPage(reply, status, page, { cookie, ...this.frame(opened) });
  }
}

const scopeOf = (opened: Opened) => `confirmation:${opened.appointment.id}`;
