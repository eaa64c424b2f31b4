import java.util.ArrayList;
import java.util.List;
import org.apache.jena.query.Query;
import org.apache.jena.query.SortCondition;
import org.apache.jena.sparql.expr.E_Coalesce;
import org.apache.jena.sparql.expr.E_Function;
import org.apache.jena.sparql.expr.Expr;
import org.apache.jena.sparql.expr.ExprList;
import org.apache.jena.sparql.expr.NodeValue;
import org.apache.jena.sparql.syntax.ElementSubQuery;
import org.apache.jena.sparql.syntax.ElementVisitorBase;
import org.apache.jena.sparql.syntax.ElementWalker;

/**
 * Makes an endpoint order text by a locale's collation, as some engines do (GraphDB, Stardog and
 * others can be set up so), instead of by code point as SPARQL's operators order strings. Every
 * ORDER BY key of a query and of its subqueries becomes
 * {@code COALESCE(arq:collation("LOCALE", key), key)}: ARQ's own collation function (a sort key
 * from {@link java.text.Collator}) for a string, the key unchanged for anything it refuses.
 * Comparisons in FILTER are left as they are, as on such engines.
 */
final class Collation {
  private static final String FUNCTION = "http://jena.apache.org/ARQ/function#collation";
  private final NodeValue locale;

  Collation(String locale) {
    this.locale = NodeValue.makeString(locale);
  }

  /** Rewrites the ORDER BY keys of `query` and of every subquery in it, in place. */
  void apply(Query query) {
    if (query.hasOrderBy()) {
      List<SortCondition> conditions = new ArrayList<>(query.getOrderBy());
      query.getOrderBy().clear();
      for (SortCondition condition : conditions) {
        query.addOrderBy(collated(condition.getExpression()), condition.getDirection());
      }
    }
    if (query.getQueryPattern() == null) return;
    ElementWalker.walk(
        query.getQueryPattern(),
        new ElementVisitorBase() {
          @Override
          public void visit(ElementSubQuery element) {
            apply(element.getQuery());
          }
        });
  }

  private Expr collated(Expr key) {
    Expr sortKey = new E_Function(FUNCTION, new ExprList(List.of(locale, key)));
    return new E_Coalesce(new ExprList(List.of(sortKey, key)));
  }
}
