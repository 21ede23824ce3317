import { takeContractViolations } from './openapi-contract';

// After every test: the responses it got that the OpenAPI document does not describe.
afterEach(() => {
  const violations = takeContractViolations();
  if (violations.length > 0)
    throw new Error(
      `Responses that break the OpenAPI document (issue 28):\n${violations.join('\n')}`,
    );
});
