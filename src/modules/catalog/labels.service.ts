import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { findOwned, listOwned, softDeleteOwned } from '../../common/database/tenant-rows';
import { Label } from './label.entity';
import type { CreateLabelRequest, UpdateLabelRequest } from './label.requests';
import { type LabelView, toLabelView } from './label.view';

export const DEFAULT_LABEL_COLOR = 'gray';

@Injectable()
export class LabelsService {
  constructor(@InjectRepository(Label) private readonly labels: Repository<Label>) {}

  async list(accountId: number): Promise<LabelView[]> {
    const rows = await listOwned(this.labels, accountId);
    return rows.map(toLabelView);
  }

  async get(accountId: number, id: number): Promise<LabelView> {
    return toLabelView(await findOwned(this.labels, accountId, id));
  }

  async create(accountId: number, request: CreateLabelRequest): Promise<LabelView> {
    const now = new Date();
    const label = await this.labels.save(
      this.labels.create({
        accountId,
        name: request.name,
        color: request.color ?? DEFAULT_LABEL_COLOR,
        deletedAt: null,
        createdAt: now,
        updatedAt: now,
      }),
    );
    return toLabelView(label);
  }

  async update(accountId: number, id: number, request: UpdateLabelRequest): Promise<LabelView> {
    const label = await findOwned(this.labels, accountId, id);
    if (request.name !== undefined) label.name = request.name;
    if (request.color !== undefined) label.color = request.color;
    label.updatedAt = new Date();
    return toLabelView(await this.labels.save(label));
  }

  /** Soft delete: appointments that carry the label keep showing it. */
  async delete(accountId: number, id: number): Promise<void> {
    await softDeleteOwned(this.labels, accountId, id);
  }
}
