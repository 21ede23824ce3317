import {
  AttributeError,
  InvalidAttributeError,
  NotFoundError,
} from '../../common/errors/domain-error';

/* A client is named by the query of `PUT` and `DELETE /clients`, not an id: none 404, several 400. */

/** What a query named a client by, for messages: `"Jane Doe" with phone "+1 555 0100"`. */
interface ClientNamed {
  firstName: string;
  lastName: string;
  phone?: string;
  email?: string;
}

function described({ firstName, lastName, phone, email }: ClientNamed): string {
  const contact = [
    ...(phone === undefined ? [] : [`phone "${phone}"`]),
    ...(email === undefined ? [] : [`e-mail "${email}"`]),
  ];
  return `"${firstName} ${lastName}"${contact.length > 0 ? ` with ${contact.join(' and ')}` : ''}`;
}

export class ClientNotFoundError extends NotFoundError {
  constructor(named: ClientNamed) {
    super(`No client ${described(named)} was found.`);
  }
}

/** More than one client matches: the query must say which (the reference matches on name and phone). */
export class AmbiguousClientError extends InvalidAttributeError {
  constructor(named: ClientNamed) {
    const missing = [
      ...(named.phone === undefined ? ['"phone"'] : []),
      ...(named.email === undefined ? ['"email"'] : []),
    ];
    // With "email" given at most one matches (the name and e-mail are a client's identity).
    super(
      'ambiguous_client',
      `Several clients match ${described(named)}; give ${missing.join(' or ') || '"email"'} too.`,
    );
  }
}

/** The client list has this person already (identityKey). */
export class DuplicateClientError extends AttributeError(
  'duplicate_client',
  ({ firstName, lastName }: { firstName: string; lastName: string }) =>
    `The client "${firstName} ${lastName}" already exists; PUT /clients changes it.`,
) {}
