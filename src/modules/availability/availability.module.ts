import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Appointment } from './appointment.entity';
import { AvailabilityController } from './availability.controller';
import { AvailabilityService } from './availability.service';
import { Block } from './block.entity';
import { BlocksController } from './blocks.controller';
import { BlocksService } from './blocks.service';
import { CalendarLocks } from './calendar-locks';
import { SlotHold } from './slot-hold.entity';
import { SlotPlacement } from './slot-placement';

/** Which times can be booked: the slot engine's data, `/availability/*` and blocks. */
@Module({
  imports: [TypeOrmModule.forFeature([Appointment, Block, SlotHold])],
  controllers: [AvailabilityController, BlocksController],
  providers: [AvailabilityService, BlocksService, CalendarLocks, SlotPlacement],
  exports: [AvailabilityService, BlocksService, CalendarLocks, SlotPlacement],
})
export class AvailabilityModule {}
