import { DomainError } from '../../common/errors/domain-error';

/* The contract's four certificate errors (400), as POST /appointments and the check give them. */

export class InvalidCertificateError extends DomainError {
  constructor(code: string) {
    super(400, 'invalid_certificate', `The certificate "${code}" is invalid.`);
  }
}

export class ExpiredCertificateError extends DomainError {
  constructor(code: string) {
    super(400, 'expired_certificate', `The certificate "${code}" is expired.`);
  }
}

export class InvalidCertificateTypeError extends DomainError {
  constructor(code: string, appointmentTypeId: number) {
    super(
      400,
      'invalid_certificate_type',
      `The certificate "${code}" is invalid for appointment type "${appointmentTypeId}".`,
    );
  }
}

export class CertificateUsesError extends DomainError {
  constructor(code: string, appointmentTypeId: number) {
    super(
      400,
      'certificate_uses',
      `The certificate "${code}" has no remaining uses for appointment type "${appointmentTypeId}".`,
    );
  }
}
