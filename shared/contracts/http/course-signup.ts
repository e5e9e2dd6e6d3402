import { z } from 'zod';
import {
  CourseSignupInputSchema,
  CourseSignupPlanSchema,
  CourseSignupResultSchema,
  StaffCourseListQuerySchema,
  StaffCourseListSchema,
} from '../api/course-signup';
import { contractGroup } from './define';

const StudioParams = z.object({ uuid: z.string() });
const MetaParams = z.object({ uuid: z.string(), scheduleMeta: z.uuid() });

export const CourseSignupApi = contractGroup('courseSignup', {
  getCourseCourseInit: {
    method: 'get',
    path: '/v4/:uuid/course/course/init',
    access: 'staff',
    ability: 'schedule.view',
    params: StudioParams,
    query: StaffCourseListQuerySchema,
    response: StaffCourseListSchema,
  },
  postCourseSignupPreview: {
    method: 'post',
    path: '/v4/:uuid/course/:scheduleMeta/signup/preview',
    access: 'staff',
    ability: 'schedule.book',
    params: MetaParams,
    body: CourseSignupInputSchema,
    response: CourseSignupPlanSchema,
  },
  postCourseSignupConfirm: {
    method: 'post',
    path: '/v4/:uuid/course/:scheduleMeta/signup/confirm',
    access: 'staff',
    ability: 'schedule.book',
    params: MetaParams,
    body: CourseSignupInputSchema,
    response: CourseSignupResultSchema,
  },
});
