import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { findOwned, listOwned, softDeleteOwned } from '../../common/database/tenant-rows';
import { toCents } from '../../common/money/money';
import { Addon } from './addon.entity';
import type { CreateAddonRequest, UpdateAddonRequest } from './addon.requests';
import { type AddonView, toAddonView } from './addon.view';

@Injectable()
export class AddonsService {
  constructor(@InjectRepository(Addon) private readonly addons: Repository<Addon>) {}

  async list(accountId: number): Promise<AddonView[]> {
    const rows = await listOwned(this.addons, accountId);
    return rows.map(toAddonView);
  }

  async get(accountId: number, id: number): Promise<AddonView> {
    return toAddonView(await findOwned(this.addons, accountId, id));
  }

  async create(accountId: number, request: CreateAddonRequest): Promise<AddonView> {
    const now = new Date();
    const addon = await this.addons.save(
      this.addons.create({
        accountId,
        name: request.name,
        duration: request.duration ?? 0,
        priceCents: request.price === undefined ? 0 : toCents(request.price),
        private: request.private ?? false,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    return toAddonView(addon);
  }

  async update(accountId: number, id: number, request: UpdateAddonRequest): Promise<AddonView> {
    const addon = await findOwned(this.addons, accountId, id);
    if (request.name !== undefined) addon.name = request.name;
    if (request.duration !== undefined) addon.duration = request.duration;
    if (request.price !== undefined) addon.priceCents = toCents(request.price);
    if (request.private !== undefined) addon.private = request.private;
    addon.updatedAt = new Date();
    return toAddonView(await this.addons.save(addon));
  }

  /** Soft delete: appointments booked with the addon keep it; types stop offering it. */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.addons, accountId, id);
  }
}
