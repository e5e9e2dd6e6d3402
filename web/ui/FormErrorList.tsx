import { Alert, List } from '@mantine/core';

/** Form-level errors (the envelope's "" key or a §8 general message), announced to screen readers. */
export function FormErrorList({ errors }: { errors: string[] }) {
  if (errors.length === 0) return null;
  return (
    <Alert color="red" variant="light" role="alert" data-testid="form-errors" p="sm">
      {errors.length === 1 ? (
        errors[0]
      ) : (
        <List size="sm">
          {errors.map((message) => (
            <List.Item key={message}>{message}</List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}
