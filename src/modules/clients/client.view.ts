import { ApiProperty } from '@nestjs/swagger';
import type { Client } from './client.entity';

/** A client as `/clients` answers it: exactly the reference's fields. */
export class ClientView {
  @ApiProperty({ example: 'Jane' })
  firstName!: string;

  @ApiProperty({ example: 'Doe' })
  lastName!: string;

  @ApiProperty({ description: 'Lower-cased; "" when none.', example: 'jane.doe@example.com' })
  email!: string;

  @ApiProperty({ description: 'As given; "" when none.', example: '+1 555 0100' })
  phone!: string;

  @ApiProperty({ description: 'The owner\'s notes about the client; "" when none.', example: '' })
  notes!: string;
}

export function toClientView(client: Pick<Client, keyof ClientView>): ClientView {
  return {
    firstName: client.firstName,
    lastName: client.lastName,
    email: client.email,
    phone: client.phone,
    notes: client.notes,
  };
}
