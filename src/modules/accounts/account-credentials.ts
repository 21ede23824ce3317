/** What an operator receives once, when an account is created or its key rotated. */
export interface AccountCredentials {
  id: number;
  apiKey: string;
}
