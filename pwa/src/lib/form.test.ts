import { describe, expect, it } from 'vitest';
import { errorsFromIssues, errorsFromServer } from './form';

describe('errorsFromIssues', () => {
  it('keeps the first message of each field, in the words `message` gives', () => {
    const errors = errorsFromIssues<'email' | 'topic'>(
      [
        { path: ['email'], message: 'Enter a valid email address' },
        { path: ['email'], message: 'Email must be at most 254 characters' },
        { path: ['topic'], message: 'Choose a topic' },
      ],
      ({ field, message }) => `${field}: ${message}`,
    );
    expect(errors).toEqual({ email: 'email: Enter a valid email address', topic: 'topic: Choose a topic' });
  });

  it('puts an issue without a field on the form', () => {
    expect(errorsFromIssues([{ path: [], message: 'Bad' }], ({ message }) => message)).toEqual({ form: 'Bad' });
  });
});

describe('errorsFromServer', () => {
  const describe400 = () => 'described';
  it('shows the server’s per-field messages beside the form’s fields, any other on the form', () => {
    const error = {
      status: 400,
      data: { message: 'x', code: 'validation_failed', fields: { age: 'Age must be a whole number', extra: 'Odd' } },
    };
    expect(errorsFromServer(error, ['age', 'gender'], (m) => m.toUpperCase(), describe400)).toEqual({
      age: 'AGE MUST BE A WHOLE NUMBER',
      form: 'ODD',
    });
  });

  it('describes any other failure on the form', () => {
    expect(
      errorsFromServer(
        { status: 429, data: { message: 'Slow down' } },
        ['age'],
        (m) => m,
        () => 'try later',
      ),
    ).toEqual({ form: 'try later' });
    expect(
      errorsFromServer(
        { status: 'FETCH_ERROR', error: 'x' },
        ['age'],
        (m) => m,
        () => 'offline',
      ),
    ).toEqual({ form: 'offline' });
  });
});
