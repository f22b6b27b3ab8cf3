#include "src/optimize/optimizer.h"

namespace laneql {
namespace optimize {

void Optimize(plan::LogicalPtr* root, bool prune_columns) {
  FoldConstantConditions(root);
  FactorOrConditions(root);
  PushDownFilters(root);
  DropNotNullOfColumnsWithoutNulls(root);
  RightJoinsAsLeft(root);
  FoldConstantConditions(root);
  EstimateCardinality(root->get());
  PushDownSemiJoins(root);
  EstimateCardinality(root->get());
  OrderJoins(root);
  BuildOuterJoinsOnSmallerSide(root);
  if (prune_columns) PruneColumns(root);
  EstimateCardinality(root->get());
}

void OptimizeSelect(plan::Plan* plan) {
  RewriteSumsOfOffsets(plan);
  SplitDerivedKeys(plan);
  AnswerCountsFromMetadata(plan);
  PackShortStringKeys(plan);
  RewriteSubstringPrefixes(plan);
}

void OptimizeSelectOverRowsToCome(plan::Plan* plan) {
  RewriteSumsOfOffsets(plan);
  SplitDerivedKeys(plan);
  RewriteSubstringPrefixes(plan);
}

}  // namespace optimize
}  // namespace laneql
