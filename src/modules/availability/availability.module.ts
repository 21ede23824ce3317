import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Appointment } from '../appointments/appointment.entity';
import { Block } from './block.entity';

/** Which times can be booked: the slot engine's data, `/availability/*` and blocks. */
@Module({
  imports: [TypeOrmModule.forFeature([Appointment, Block])],
  controllers: [],
  providers: [],
  exports: [],
})
export class AvailabilityModule {}
