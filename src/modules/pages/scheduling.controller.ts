import { Controller, Get, Post, Req, Res, UseFilters } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DateTime } from 'luxon';
import { clientKeyOf } from '../../common/limits/client-address';
import { Public } from '../../common/http/public.decorator';
import { AppConfig } from '../../config/app-config';
import type { Account } from '../accounts';
import {
  BookAppointmentCommand,
  BookAppointmentRequest,
  BookSeriesCommand,
  BookSeriesRequest,
  SeriesUnavailableError,
  confirmationToken,
} from '../appointments';
import { CreateSlotHoldCommand } from '../holds';
import { PagesFilter } from './pages.filter';
import { type PageError, isShownOnPage, pageErrorOf } from './page-errors';
import { formOf, languageOf, pathId } from './page-requests';
import { type Language, messagesOf } from '../../common/i18n';
import type { PageLook } from './layout';
import { frameOf, lookOf } from './page-look';
import { PageCsrf, sendPage, sendRedirect } from './page-security';
import {
  type Choices,
  choicePairs,
  formParams,
  queryOf,
  queryParams,
  readChoices,
} from './scheduling-choices';
import { SchedulingModels } from './scheduling-model';
import { schedulingPage, timeList } from './scheduling-page';

/**
 * The scheduling page, `/schedule/{accountId}` (every step a GET of this URL with the choices so
 * far in its query; the details form POSTs here). Booking is the API's own command in client
 * mode: the same checks, errors, events, e-mail and webhooks as `POST /appointments`.
 */
@ApiExcludeController()
@Public()
@UseFilters(PagesFilter)
@Controller('schedule')
export class SchedulingController {
  private readonly secret: string;

  constructor(
    private readonly models: SchedulingModels,
    private readonly commands: CommandBus,
    private readonly csrf: PageCsrf,
    config: AppConfig,
  ) {
    this.secret = config.secret;
  }

  @Get(':accountId')
  async show(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const account = await this.models.account(pathId(req, 'accountId', 'page.noSchedule'));
    const params = queryParams(req.query);
    const choices = readChoices(params);
    // The links to this page in other languages: its choices as the page took them (a value it
    // refused, or a parameter it does not know, appears nowhere on it).
    const here = `/schedule/${account.id}${queryOf(choicePairs({ ...choices, lang: undefined }, EVERY_STEP))}`;
    const look = lookOf(account, languageOf(req, account.language), here);
    if (params.get('part') === 'times' && choices.date && choices.typeIds.length === 1) {
      // The script's request: the time list alone, swapped into the page without a reload.
      const model = await this.models.timeList(account, choices);
      const { nonce, cookie } = this.csrf.nonceOf(req);
      const csrf = this.csrf.token(nonce, scopeOf(account));
      const fragment = timeList({ model, choices, look, csrf, errors: [] });
      return sendPage(reply, 200, fragment, { cookie, ...frameOf(account) });
    }
    await this.page(req, reply, account, choices, look, 200, []);
  }

  /**
   * The time list's form: holds the chosen time (slot holds, the API's own service) while the
   * client fills in the details, then shows the details form with the hold's token. A time taken
   * meanwhile: the day's other times, as after a failed booking.
   */
  @Post(':accountId/hold')
  async hold(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const account = await this.models.account(pathId(req, 'accountId', 'page.noSchedule'));
    const form = formOf(req);
    const choices = readChoices(formParams(form));
    const look = lookOf(account, languageOf(req, account.language, form));
    const t = messagesOf(look.lang);
    const list = { ...choices, datetime: undefined, hold: undefined };
    if (!this.csrf.verify(req, form, scopeOf(account)))
      return this.page(req, reply, account, list, look, 403, [
        { place: 'time', message: t('error.formExpired') },
      ]);
    if (!choices.datetime || choices.typeIds.length !== 1)
      return this.page(req, reply, account, list, look, 400, [
        { place: 'time', message: t('error.chooseTime') },
      ]);
    const details = (hold?: string) =>
      sendRedirect(
        reply,
        `/schedule/${account.id}${queryOf(choicePairs({ ...choices, hold }, { date: true, datetime: true }))}`,
        frameOf(account),
      );
    // An account whose page holds nothing: the details step at once, the time not held.
    if (account.pageHoldsPerAddress === 0 || account.pageHoldDayShare === 0) return details();
    try {
      const held = await this.commands.execute(
        new CreateSlotHoldCommand(
          account,
          {
            appointmentTypeID: choices.typeIds[0],
            calendarID: choices.calendarId,
            datetime: choices.datetime,
            addonIDs: choices.addonIds,
            timezone: choices.timezone,
          },
          // Verified above: the request carries the page session's cookie.
          { session: this.csrf.sessionOf(req)!, network: clientKeyOf(req.ip) },
        ),
      );
      return details(held.token);
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      const error = pageErrorOf(e, look.lang);
      if (e.status === 429)
        // Over a hold limit: said in words, with the offer to book the time without holding it
        // (the booking's own lock still decides who gets it).
        return this.page(req, reply, account, list, look, 429, [
          { ...error, unheld: choices.datetime },
        ]);
      const status = error.place === 'time' ? 409 : 400;
      return this.page(req, reply, account, list, look, status, [{ ...error, place: 'time' }]);
    }
  }

  @Post(':accountId')
  async book(@Req() req: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const account = await this.models.account(pathId(req, 'accountId', 'page.noSchedule'));
    const form = formOf(req);
    const choices = readChoices(formParams(form));
    const look = lookOf(account, languageOf(req, account.language, form));
    const t = messagesOf(look.lang);
    if (!this.csrf.verify(req, form, scopeOf(account)))
      return this.page(req, reply, account, choices, look, 403, [
        { place: 'form', message: t('error.formExpired') },
      ]);
    try {
      const id = await this.bookOne(account, choices, form, look.lang);
      const token = confirmationToken(this.secret, account.id, id);
      return sendRedirect(reply, `/confirmation/${token}?done=booked`, frameOf(account));
    } catch (e) {
      if (!isShownOnPage(e)) throw e;
      if (e instanceof SeriesUnavailableError)
        // Not every date of the series is free (any more): its dates again, each checked now.
        return this.page(req, reply, account, choices, look, 409, [
          {
            place: 'series',
            message: t('error.seriesTaken', { count: e.details.unavailable.length }),
          },
        ]);
      const error = pageErrorOf(e, look.lang);
      if (error.place !== 'time')
        return this.page(req, reply, account, choices, look, 400, [error]);
      // The time was taken meanwhile: the other times of that day, the client's answers kept.
      const date = choices.datetime
        ? DateTime.fromISO(choices.datetime, { setZone: true }).toISODate()!
        : choices.date;
      const again = { ...choices, datetime: undefined, hold: undefined, date };
      return this.page(req, reply, account, again, look, 409, [error]);
    }
  }

  /**
   * The booking command of `POST /appointments`, or of `POST /appointment-series` when the client
   * asked for a series (its first appointment's page then shows the series): the appointment's id.
   */
  private async bookOne(
    account: Account,
    choices: Choices,
    form: URLSearchParams,
    language: Language,
  ): Promise<number> {
    // The language the client booked in: its e-mails, SMS and confirmation page speak it.
    const mode = { admin: false, noEmail: false, language };
    const booking = bookingOf(choices, form);
    if (!choices.repeat) {
      const view = await this.commands.execute(new BookAppointmentCommand(account, booking, mode));
      return view.id;
    }
    const recurrence = { frequency: choices.repeat.frequency, count: choices.repeat.count };
    const request = Object.assign(new BookSeriesRequest(), booking, { recurrence });
    const series = await this.commands.execute(new BookSeriesCommand(account, request, mode));
    return series.appointments[0].id;
  }

  private async page(
    req: FastifyRequest,
    reply: FastifyReply,
    account: Account,
    choices: Choices,
    look: PageLook,
    status: number,
    errors: PageError[],
  ): Promise<void> {
    const model = await this.models.build(account, choices);
    const { nonce, cookie } = this.csrf.nonceOf(req);
    const csrf = this.csrf.token(nonce, scopeOf(account));
    const page = schedulingPage({ model, choices, look, csrf, errors });
    sendPage(reply, status, page, { cookie, ...frameOf(account) });
  }
}

const scopeOf = (account: Account) => `schedule:${account.id}`;

const EVERY_STEP = { month: true, date: true, datetime: true };

/** The details form as the booking command's request (what `POST /appointments` takes). */
function bookingOf(choices: Choices, form: URLSearchParams): BookAppointmentRequest {
  const p = choices.prefill;
  return Object.assign(new BookAppointmentRequest(), {
    firstName: p.firstName ?? '',
    lastName: p.lastName ?? '',
    email: p.email ?? '',
    phone: p.phone?.trim() ? p.phone : undefined,
    appointmentTypeID: choices.typeIds[0],
    calendarID: choices.calendarId,
    datetime: choices.datetime,
    timezone: choices.timezone,
    certificate: p.certificate?.trim() ? p.certificate.trim() : undefined,
    fields: [...p.fields].map(([id, value]) => ({ id, value })),
    addonIDs: choices.addonIds,
    smsOptIn: form.get('smsOptIn') === 'yes',
    holdToken: choices.hold,
  });
}
