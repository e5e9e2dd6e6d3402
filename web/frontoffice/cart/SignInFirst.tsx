import { Button, Group, Paper, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { FRONT_OFFICE_QUERY } from '../../../shared/contracts/routes';

/** The page a signed-out visitor meets instead of a client's own screen: sign in, then come back. */
export function SignInFirst(props: {
  /** The front-office page to return to after the login. */
  back: string;
  text: string;
  signIn: string;
  testId?: string;
  signInTestId?: string;
  /** More links beside "sign in". */
  more?: ReactNode;
}) {
  const login = `/login?${new URLSearchParams({ [FRONT_OFFICE_QUERY.redirectAfterLogin]: props.back })}`;
  return (
    <Paper withBorder p="xl" radius="md" maw={480} mx="auto" data-testid={props.testId}>
      <Stack gap="md">
        <Text>{props.text}</Text>
        <Group>
          <Button component={Link} to={login} data-testid={props.signInTestId}>
            {props.signIn}
          </Button>
          {props.more}
        </Group>
      </Stack>
    </Paper>
  );
}
