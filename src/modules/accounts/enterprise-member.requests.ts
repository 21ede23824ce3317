import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsString } from 'class-validator';
import { IfGiven, IsEmailAddress, IsName, Trim } from '../../common/http/attributes';

/** `POST /api/enterprise/v1/users`: a new member account (its zone checked by the account rules). */
export class CreateMemberRequest {
  @ApiProperty({
    description: 'Text of at most 255 characters (trimmed), not blank.',
    example: 'Downtown Clinic',
  })
  @IsName()
  name!: string;

  @ApiProperty({
    description: 'One e-mail address, unique among accounts (stored lower-cased).',
    maxLength: 254,
    example: 'downtown@example.com',
  })
  @IsEmailAddress()
  @Trim()
  @IsString()
  @IsDefined()
  email!: string;

  @ApiPropertyOptional({
    description: 'IANA zone name; UTC when left out.',
    example: 'America/New_York',
  })
  @IfGiven(IsString())
  timezone?: string;
}
