import type { AnalysisBase } from '../../../analysis/skillAnalysis';
import type { SkillPlusPackage } from './readPackage';

/** The analysis of a skill+ package: the package as read, whose files the model's spans point into. */
export type SkillplusAnalysis = AnalysisBase & { format: 'skillplus'; skillplus: SkillPlusPackage };
