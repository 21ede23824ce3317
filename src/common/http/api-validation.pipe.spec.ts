import type { ArgumentMetadata } from '@nestjs/common';
import { AvailableTimesRequest } from '../../modules/availability/availability.requests';
import { ListAppointmentsRequest } from '../../modules/appointments/list-appointments.requests';
import { ApiValidationPipe } from './api-validation.pipe';

const query = (metatype: ArgumentMetadata['metatype']): ArgumentMetadata => ({
  type: 'query',
  metatype,
});

/**
 * The pipe keeps the DTO of a valid query string (ApiValidationPipe.validQuery): a repeated query
 * must get what validating it afresh gives, as its own copy, and an invalid one its error each time.
 */
describe('ApiValidationPipe: valid query DTOs kept', () => {
  const times = query(AvailableTimesRequest);
  const raw = { appointmentTypeID: '7', date: '2030-06-03', addonIDs: ['3', '4'], junk: 'x' };

  it('gives a repeated query the DTO a fresh pipe gives, as a copy of its own', async () => {
    const pipe = new ApiValidationPipe();
    const first = (await pipe.transform({ ...raw }, times)) as AvailableTimesRequest;
    const again = (await pipe.transform({ ...raw }, times)) as AvailableTimesRequest;
    const fresh = await new ApiValidationPipe().transform({ ...raw }, times);
    expect(again).toEqual(fresh);
    expect(again).toBeInstanceOf(AvailableTimesRequest);
    expect(again).toEqual({ appointmentTypeID: 7, date: '2030-06-03', addonIDs: [3, 4] });
    // Each caller may change its own DTO: the next one does not see it.
    again.addonIDs!.push(5);
    again.date = 'changed';
    first.appointmentTypeID = 1;
    expect(await pipe.transform({ ...raw }, times)).toEqual(fresh);
  });

  it('refuses an invalid query every time with its error', async () => {
    const pipe = new ApiValidationPipe();
    for (let i = 0; i < 2; i++) {
      const refused = pipe.transform({ appointmentTypeID: 'x', date: '2030-06-03' }, times);
      await expect(refused).rejects.toMatchObject({ code: 'invalid_appointment_type_id' });
      await expect(refused).rejects.toThrow('Invalid "appointmentTypeID" attribute value.');
    }
  });

  it('tells apart queries of different DTOs and values', async () => {
    const pipe = new ApiValidationPipe();
    await pipe.transform({ ...raw }, times);
    expect(await pipe.transform({ ...raw, date: '2030-06-04' }, times)).toMatchObject({
      date: '2030-06-04',
    });
    const list = await pipe.transform({ max: '5' }, query(ListAppointmentsRequest));
    expect(list).toBeInstanceOf(ListAppointmentsRequest);
    expect(list).not.toHaveProperty('date');
  });
});
