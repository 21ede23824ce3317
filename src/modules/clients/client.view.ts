import { classViewSchema, str, type ViewType } from '../../common/openapi/view-schema';
import type { Client } from './client.entity';

/** A client as `/clients` answers it: exactly the reference's fields. */
export const CLIENT_VIEW = classViewSchema('ClientView', {
  firstName: str('Jane'),
  lastName: str('Doe'),
  email: str('jane.doe@example.com', 'Lower-cased; "" when none.'),
  phone: str('+1 555 0100', 'As given; "" when none.'),
  notes: str('', 'The owner\'s notes about the client; "" when none.'),
});

export type ClientView = ViewType<typeof CLIENT_VIEW>;

export function toClientView(client: Pick<Client, keyof ClientView>): ClientView {
  return {
    firstName: client.firstName,
    lastName: client.lastName,
    email: client.email,
    phone: client.phone,
    notes: client.notes,
  };
}
